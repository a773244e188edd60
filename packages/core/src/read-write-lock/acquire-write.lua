-- Acquire or re-enter the write lock; when busy, optionally join (or stay in) the writers' FIFO
-- queue. Writers exclude readers and each other; the writer is granted only when no live reader
-- remains, and a queued live writer blocks new readers (see acquire-read.lua), so a stream of
-- readers cannot starve it. A reader asking for the write lock is refused (status -2), never
-- left to wait for itself.
-- @protocol
-- @key lock  writer hash: o owner, c count, f fence, t granted at, g = 1 while a direct grant is
--   unclaimed, v lease version (absent: 0), r = 1 once a reader waits, d = 1 once it downgraded,
--   w = 1 once a writer queued behind this hold
-- @key fence  fence counter
-- @key queue  writer queue (zset owner -> arrival µs)
-- @key deadlines  writer poll deadlines (zset owner -> server ms)
-- @key readers  readers (zset owner -> expiry)
-- @key holds  reader holds (hash; w = 1 once a writer queued behind the readers)
-- @key stats  hold statistics
-- @arg owner
-- @arg leaseMs
-- @arg queue  1 = join the queue when busy, 0 = try only
-- @arg returnWithinMs  ms within which a queued waiter promises to poll again
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @arg queuedBefore  1 when an earlier attempt of this acquire may have queued the caller, else 0
-- @reply status fence count pttl position meanHoldMs holdAgeMs version
--   status 1 granted, 2 re-entered, 0 busy, -2 caller holds the read lock, -3 quarantined
--   (pttl = ms left of the restart quarantine; no grant made)
-- @include ../common/fence.lua
-- @include ../common/live-pttl.lua
-- @include ../fair-lock/_grant-head.lua
-- @include ../fair-lock/_enqueue.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key = KEYS[5], KEYS[6], KEYS[7]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local queue, return_within = ARGV[3] == '1', tonumber(ARGV[4])
local fence_ttl, channel_prefix, queued_before = tonumber(ARGV[5]), ARGV[6], ARGV[7] == '1'

-- @include ../fair-lock/_granted.lua

-- read once: the grant and claim answers come from it (and from what they write)
local state = redis.call('HMGET', lock_key, 'o', 'g', 't', 'v', 'f', 'c', 'w')
local holder, claimed, granted_at = state[1], state[2], state[3]
-- @include ../fair-lock/_reenter.lua
if holder == owner then return reenter() end

-- Readers matter only while no writer holds: a writer is granted only once none is live, and
-- no new reader is let in beside it but the writer itself (a downgrade, which re-enters above).
-- Then one EXISTS says which of the readers and the queue exist (the readers' key named twice
-- counts 2, the queue 1; Redis and Upstash count a key each time it is named): on a name with
-- neither, it stands for the readers' count and the queue's read.
local present = not holder and redis.call('EXISTS', readers_key, readers_key, queue_key) or 0
local readers = present >= 2 and live_readers(readers_key, holds_key, true)
local queue_absent = not holder and present % 2 == 0
-- a queued waiter's poll moves its deadline before any grant looks at it
-- (only a caller that may have queued before can be in the queue: others need no look)
local refreshed = queue and queued_before and refresh_deadline(queue_key, deadlines_key, owner, return_within)
if not holder and not readers then
  -- an idle lock means a new grant (to the queue head or to us): not while quarantined
-- @include ../fair-lock/_take-free.lua
  -- the head just granted may be the caller: it claims at once
  if holder == owner then return reenter() end
end

if readers and redis.call('ZSCORE', readers_key, owner) then
  -- upgrade: waiting would wait for this reader itself, so refuse instead of deadlocking
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  return {-2, 0, 0, 0, 0, 0, 0, 0}
end

local busy_ttl = holder and live_pttl(lock_key) or readers_ttl(readers_key, holds_key)
local position = 0
if queue then
  -- mark what is in the way, so that its release hands on: the writer's hold, or the readers
  -- (the holds hash lives exactly as long as the readers: the field goes with them)
  if holder then mark_queued(lock_key, state) elseif readers then redis.call('HSET', holds_key, 'w', 1) end
  position = enqueue(queue_key, deadlines_key, owner, return_within, busy_ttl, refreshed)
else
  -- a try-only attempt by a waiter still queued reports its place, so the caller knows to leave
  local rank = redis.call('ZRANK', queue_key, owner)
  if rank then position = rank + 1 end
end
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = holder and now_ms - tonumber(granted_at or now_ms) or 0
return {0, 0, 0, busy_ttl, position, math.floor(mean_hold), age, 0}
