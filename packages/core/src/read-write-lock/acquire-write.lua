-- Acquire or re-enter the write lock; when busy, optionally join (or stay in) the writers' FIFO
-- queue. Writers exclude readers and each other; the writer is granted only when no live reader
-- remains, and a queued live writer blocks new readers (see acquire-read.lua), so a stream of
-- readers cannot starve it. A reader asking for the write lock is refused (status -2), never
-- left to wait for itself.
-- KEYS[1] writer hash (o owner, c count, f fence, t granted at, g = 1 while a direct grant is
--         unclaimed)   KEYS[2] fence counter   KEYS[3] writer queue (zset owner -> arrival µs)
-- KEYS[4] writer poll deadlines (zset owner -> server ms)   KEYS[5] readers (zset owner -> expiry)
-- KEYS[6] reader holds (hash)   KEYS[7] hold statistics   KEYS[8] this operation's record
-- KEYS[9] restart-quarantine sentinel
-- ARGV[1] owner   ARGV[2] lease ms   ARGV[3] 1 = join the queue when busy, 0 = try only
-- ARGV[4] ms within which a queued waiter promises to poll again
-- ARGV[5] operation record ttl ms   ARGV[6] fence counter ttl ms   ARGV[7] grant channel prefix
-- ARGV[8] quarantine ms (0: off)   ARGV[9] sentinel ttl ms
-- Returns {status, fence, count, pttl, position, mean hold ms, current hold age ms, server ms}
--   status 1 granted, 2 re-entered, 0 busy, -1 abandoned operation, -2 caller holds the read lock,
--   -3 quarantined (pttl = ms left of the restart quarantine; no grant made)
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include ../fair-lock/_grant-head.lua
-- @include ../fair-lock/_enqueue.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key, op_key = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local queue, return_within = ARGV[3] == '1', tonumber(ARGV[4])
local op_ttl, fence_ttl, channel_prefix = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local quarantine = {key = KEYS[9], ms = tonumber(ARGV[8]), ttl = tonumber(ARGV[9])}

-- @include ../fair-lock/_acquire-replay.lua

purge_readers(readers_key, holds_key)
if queue then refresh_deadline(queue_key, deadlines_key, owner, return_within) end

local holder = redis.call('HGET', lock_key, 'o')
if not holder and redis.call('EXISTS', readers_key) == 0 then
  -- an idle lock means a new grant (to the queue head or to us): not while quarantined
-- @include ../fair-lock/_take-free.lua
end

-- @include ../fair-lock/_reenter.lua

if redis.call('ZSCORE', readers_key, owner) then
  -- upgrade: waiting would wait for this reader itself, so refuse instead of deadlocking
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  return {-2, 0, 0, 0, 0, 0, 0, now_ms}
end

local busy_ttl = holder and redis.call('PTTL', lock_key) or readers_ttl(readers_key, holds_key)
local position = 0
if queue then
  position = enqueue(queue_key, deadlines_key, owner, return_within, busy_ttl)
else
  -- a try-only attempt by a waiter still queued reports its place, so the caller knows to leave
  local rank = redis.call('ZRANK', queue_key, owner)
  if rank then position = rank + 1 end
end
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = holder and now_ms - tonumber(redis.call('HGET', lock_key, 't') or now_ms) or 0
return {0, 0, 0, busy_ttl, position, math.floor(mean_hold), age, now_ms}
