-- Take `permits` from the semaphore, claim a direct grant, or (optionally) wait in the FIFO queue.
-- KEYS[1] state hash: a available, t configured total (set + added)
-- KEYS[2] waiter queue (zset member -> arrival µs)   KEYS[3] waiter poll deadlines (zset -> server ms)
-- KEYS[4] direct grants (zset member -> claim deadline ms)   KEYS[5] this operation's record
-- KEYS[6] restart-quarantine sentinel
-- ARGV[1] waiter id (one per acquire call)   ARGV[2] permits   ARGV[3] 1 = join the queue when busy
-- ARGV[4] ms within which a queued waiter promises to poll again   ARGV[5] claim window ms
-- ARGV[6] operation record ttl ms   ARGV[7] grant channel prefix
-- ARGV[8] quarantine ms (0: off)   ARGV[9] sentinel ttl ms
-- Returns {status, available, total, position, server ms}
--   status 1 granted, 0 busy (position > 0 when queued), -1 abandoned operation,
--   -3 quarantined (then `available` is the ms left of the restart quarantine; queued as for 0)
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, queue_key, deadlines_key, grants_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local waiter, permits, queue = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local return_within, claim_ms, op_ttl, channel_prefix = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local member = permits .. ':' .. waiter
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[8]), ttl = tonumber(ARGV[9])}

local previous = op_get(op_key)
if previous == 'x' then return {-1, 0, 0, 0, now_ms} end
if previous then return previous end

reclaim(state_key, grants_key)
grant_heads(state_key, queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, member, quarantine)
local state = redis.call('HMGET', state_key, 'a', 't')
local available, total = tonumber(state[1] or '0'), tonumber(state[2] or '0')

if redis.call('ZREM', grants_key, member) == 1 then
  -- claiming a direct grant: its permits were taken from `a` when it was made
  return op_put(op_key, {1, available, total, 0, now_ms}, op_ttl)
end

local queued = redis.call('ZSCORE', queue_key, member)
if not queued and state[2] and available >= permits and redis.call('ZCARD', queue_key) == 0 then
  if quarantine_left(quarantine) == 0 then
    redis.call('HSET', state_key, 'a', available - permits)
    return op_put(op_key, {1, available - permits, total, 0, now_ms}, op_ttl)
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
if left > 0 then return {-3, left, total, position, now_ms} end
return {0, available, total, position, now_ms}
