-- Take one permit with its own lease, claim a direct grant, or (optionally) wait in the FIFO queue.
-- The waiter id of the acquire call becomes the permit id, so a direct grant is simply a permit
-- that expires after the claim window unless its waiter claims it. A permit starts at lease
-- version 0 (no entry in the versions hash).
-- @protocol
-- @key state  state hash: t configured total
-- @key permits  permits (zset id -> expiry, server ms)
-- @key versions  lease versions (hash id -> version; absent: 0)
-- @key queue  waiter queue (zset id -> arrival µs)
-- @key deadlines  waiter poll deadlines (zset id -> server ms)
-- @key fence  fence counter
-- @arg waiter  waiter id: the permit id
-- @arg leaseMs
-- @arg queue  1 = join the queue when busy, 0 = try only
-- @arg queuedBefore  1 when an earlier attempt of this acquire may have queued it (so a direct
--   grant may be waiting under its id), else 0
-- @arg returnWithinMs  ms within which a queued waiter promises to poll again
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status fence leaseMs nextExpiryMs position
--   status 1 granted, 0 busy (position > 0 when queued; nextExpiryMs: until the next permit
--   expires), -3 quarantined (nextExpiryMs = ms left of the restart quarantine; queued as for 0)
-- @include ../common/fence.lua
-- @include _grant-heads.lua
local state_key, permits_key, versions_key, queue_key, deadlines_key, fence_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local waiter, lease, queue, queued_before = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4] == '1'
local return_within, claim_ms, fence_ttl, channel_prefix = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]

-- The ZADD makes a new permit or turns this waiter's unclaimed direct grant (a permit under its
-- id) into a held one: either way it now holds, with the full lease. `kept`: the grant's expiry.
local function granted(fresh, kept)
  redis.call('ZADD', permits_key, now_ms + lease, waiter)
  keep_permits_key(permits_key, now_ms + lease, fresh, kept)
  return {1, next_fence(fence_key, fence_ttl), lease, 0, 0}
end

-- Only a waiter that may have queued before can hold a direct grant: it looks for one first, and
-- claims it without counting anything.
local grant = queued_before and live_expiry(permits_key, waiter)
if grant then return granted(false, grant) end

local free, none_held, queue_empty, to_self = grant_heads(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, waiter, quarantine, {key = fence_key, ttl = fence_ttl})
-- Free permits and an empty queue (so this waiter is not queued, and no one is ahead): take one.
if queue_empty and free > 0 and quarantine_left(quarantine) == 0 then return granted(none_held) end
-- grant_heads has just made this waiter a direct grant (it was the head): claim it
if to_self then return granted(false, now_ms + claim_ms) end

-- grant_heads emptied the queue and permits are left: take one (an empty queue holds no one)
if not queue_empty and free > 0 and redis.call('ZCARD', queue_key) == 0 then
  if quarantine_left(quarantine) == 0 then return granted(false) end
end

if queue then
  redis.call('ZADD', queue_key, 'NX', now_us, waiter)
  redis.call('ZADD', deadlines_key, now_ms + return_within, waiter)
  -- as the Lock's queue: a poll deadline is at most the longest return window ahead
  local horizon = return_within + 60000
  redis.call('PEXPIRE', queue_key, horizon)
  redis.call('PEXPIRE', deadlines_key, horizon)
end
local position = 0
local rank = redis.call('ZRANK', queue_key, waiter)
if rank then position = rank + 1 end
local next_expiry = 0
local first = redis.call('ZRANGE', permits_key, 0, 0, 'WITHSCORES')
-- a permit lives out its expiry's millisecond ('(' in the purge): report it as at least 1 ms,
-- since a 0 reads as "unknown" and would not cap the waiter's sleep
if first[2] then next_expiry = math.max(tonumber(first[2]) - now_ms, 1) end
local left = quarantine_running(quarantine)
if left > 0 then return {-3, 0, 0, left, position} end
return {0, 0, 0, next_expiry, position}
