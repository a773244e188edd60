-- Acquire or re-enter the fair lock; when busy, optionally join (or stay in) the FIFO queue.
-- Strict FIFO: a free lock goes to the first live waiter, never to a newcomer while one is queued.
-- KEYS[1] lock hash: o owner, c hold count, f fence, t granted at (server ms), g = 1 while a
--         direct grant is unclaimed
-- KEYS[2] fence counter   KEYS[3] waiter queue (zset owner -> arrival µs)
-- KEYS[4] waiter poll deadlines (zset owner -> server ms)   KEYS[5] hold statistics (hash h)
-- KEYS[6] this operation's record   KEYS[7] restart-quarantine sentinel
-- ARGV[1] owner   ARGV[2] lease ms   ARGV[3] 1 = join the queue when busy, 0 = try only
-- ARGV[4] ms within which a queued waiter promises to poll again
-- ARGV[5] operation record ttl ms   ARGV[6] fence counter ttl ms   ARGV[7] grant channel prefix
-- ARGV[8] quarantine ms (0: off)   ARGV[9] sentinel ttl ms
-- Returns {status, fence, count, pttl, position, mean hold ms, current hold age ms, server ms}
--   status 1 granted, 2 re-entered, 0 busy (position > 0 when queued), -1 abandoned operation,
--   -3 quarantined (pttl = ms left of the restart quarantine; no grant made)
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _grant-head.lua
-- @include _enqueue.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local queue, return_within = ARGV[3] == '1', tonumber(ARGV[4])
local op_ttl, fence_ttl, channel_prefix = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local quarantine = {key = KEYS[7], ms = tonumber(ARGV[8]), ttl = tonumber(ARGV[9])}

-- @include _acquire-replay.lua

if queue then refresh_deadline(queue_key, deadlines_key, owner, return_within) end

local holder = redis.call('HGET', lock_key, 'o')
if not holder then
  -- a free lock means a new grant (to the queue head or to us): not while quarantined
-- @include _take-free.lua
end

-- @include _reenter.lua

local pttl = redis.call('PTTL', lock_key)
local position = 0
if queue then
  position = enqueue(queue_key, deadlines_key, owner, return_within, pttl)
else
  -- a try-only attempt by a waiter still queued reports its place, so the caller knows to leave
  local rank = redis.call('ZRANK', queue_key, owner)
  if rank then position = rank + 1 end
end
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = now_ms - tonumber(redis.call('HGET', lock_key, 't') or now_ms)
return {0, 0, 0, pttl, position, math.floor(mean_hold), age, now_ms}
