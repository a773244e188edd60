-- Take `permits` from the semaphore, claim a direct grant, or (optionally) wait in the FIFO queue.
-- @protocol
-- @key state  state hash: a available, t configured total (set + added)
-- @key queue  waiter queue (zset member -> arrival µs); members are `permits:waiterId`
-- @key deadlines  waiter poll deadlines (zset member -> server ms)
-- @key grants  direct grants (zset member -> claim deadline, server ms)
-- @arg waiter  waiter id (one per acquire call)
-- @arg permits
-- @arg queue  1 = join the queue when busy, 0 = try only
-- @arg returnWithinMs  ms within which a queued waiter promises to poll again
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @reply status available total position
--   status 1 granted, 0 busy (position > 0 when queued),
--   -3 quarantined (then `available` is the ms left of the restart quarantine; queued as for 0)
-- @include _grant-heads.lua
local state_key, queue_key, deadlines_key, grants_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local waiter, permits, queue = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local return_within, claim_ms, channel_prefix = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local member = permits .. ':' .. waiter

local available, total = load_state(state_key, grants_key)
local changed, queue_empty = false, false
if total then
  available, changed, queue_empty = grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, member, quarantine, available)
end
local function settle(status, position)
  if changed then redis.call('HSET', state_key, 'a', available) end
  return {status, available, total or 0, position}
end

if redis.call('ZREM', grants_key, member) == 1 then
  -- claiming a direct grant: its permits were taken from `a` when it was made
  return settle(1, 0)
end

-- An empty queue (grant_heads just saw it) holds no one: neither this waiter nor one ahead.
local queued = not queue_empty and redis.call('ZSCORE', queue_key, member)
if not queued and total and available >= permits and (queue_empty or redis.call('ZCARD', queue_key) == 0) then
  if quarantine_left(quarantine) == 0 then
    available, changed = available - permits, true
    return settle(1, 0)
  end
end

local position = 0
if queue then
  redis.call('ZADD', queue_key, 'NX', now_us, member)
  redis.call('ZADD', deadlines_key, now_ms + return_within, member)
  local horizon = return_within + 60000
  -- the queue outlives every live waiter's deadline, and vanishes once all waiters are gone
  if redis.call('PTTL', queue_key) < horizon then
    redis.call('PEXPIRE', queue_key, horizon)
    redis.call('PEXPIRE', deadlines_key, horizon)
  end
end
-- a waiter still queued from earlier polls reports its place even on a try-only poll, so that
-- the caller who gives up now knows to leave the queue
local rank = redis.call('ZRANK', queue_key, member)
if rank then position = rank + 1 end
local left = quarantine_running(quarantine)
if left > 0 then
  settle(0, 0)
  return {-3, left, total or 0, position}
end
return settle(0, position)
