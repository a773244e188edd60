-- Acquire or re-enter the fair lock; when busy, optionally join (or stay in) the FIFO queue.
-- Strict FIFO: a free lock goes to the first live waiter, never to a newcomer while one is queued.
-- @protocol
-- @key lock  hash: o owner, c hold count, f fence, t granted at (server ms), g = 1 while a direct
--   grant is unclaimed, v lease version (absent: 0), w = 1 once someone queued behind this hold
-- @key fence  fence counter
-- @key queue  waiter queue (zset owner -> arrival µs)
-- @key deadlines  waiter poll deadlines (zset owner -> server ms)
-- @key stats  hold statistics (hash h: mean hold ms)
-- @arg owner
-- @arg leaseMs
-- @arg queue  1 = join the queue when busy, 0 = try only
-- @arg returnWithinMs  ms within which a queued waiter promises to poll again
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @arg queuedBefore  1 when an earlier attempt of this acquire may have queued the caller, else 0
-- @reply status fence count pttl position meanHoldMs holdAgeMs version
--   status 1 granted, 2 re-entered, 0 busy (position > 0 when queued),
--   -3 quarantined (pttl = ms left of the restart quarantine; no grant made)
-- @include ../common/fence.lua
-- @include ../common/live-pttl.lua
-- @include _grant-head.lua
-- @include _enqueue.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local queue, return_within = ARGV[3] == '1', tonumber(ARGV[4])
local fence_ttl, channel_prefix, queued_before = tonumber(ARGV[5]), ARGV[6], ARGV[7] == '1'

-- @include _granted.lua

-- read once: the grant and claim answers come from it (and from what they write)
local state = redis.call('HMGET', lock_key, 'o', 'g', 't', 'v', 'f', 'c', 'w')
local holder, claimed, granted_at = state[1], state[2], state[3]
-- @include _reenter.lua
if holder == owner then return reenter() end

-- a queued waiter's poll moves its deadline before any grant looks at it
-- (only a caller that may have queued before can be in the queue: others need no look)
local refreshed = queue and queued_before and refresh_deadline(queue_key, deadlines_key, owner, return_within)
-- the fair lock has no other key to learn the queue's absence from: grant_head reads it
local queue_absent = false
if not holder then
  -- a free lock means a new grant (to the queue head or to us): not while quarantined
-- @include _take-free.lua
  -- the head just granted may be the caller: it claims at once
  if holder == owner then return reenter() end
end

local pttl = live_pttl(lock_key)
local position = 0
if queue then
  mark_queued(lock_key, state)
  position = enqueue(queue_key, deadlines_key, owner, return_within, pttl, refreshed)
else
  -- a try-only attempt by a waiter still queued reports its place, so the caller knows to leave
  local rank = redis.call('ZRANK', queue_key, owner)
  if rank then position = rank + 1 end
end
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = now_ms - tonumber(granted_at or now_ms)
return {0, 0, 0, pttl, position, math.floor(mean_hold), age, 0}
