-- Release one hold of the reentrant lock; when the count reaches zero, hand the lock directly
-- to the first live waiter.
-- KEYS[1] lock hash   KEYS[2] fence counter   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] hold statistics   KEYS[6] this operation's record
-- ARGV[1] owner   ARGV[2] fence of the hold being released (the state the caller expects)
-- ARGV[3] operation record ttl ms   ARGV[4] claim window ms   ARGV[5] fence counter ttl ms
-- ARGV[6] grant channel prefix   ARGV[7] statistics ttl ms
-- Returns {status, remaining count}: status 1 released, 0 not held by this owner and fence
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, fence = ARGV[1], ARGV[2]
local op_ttl, claim_ms, fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'g')
if state[1] ~= owner or state[2] ~= fence then return {0, 0} end

local count = redis.call('HINCRBY', lock_key, 'c', -1)
if count > 0 then return op_put(op_key, {1, count}, op_ttl) end

if state[4] ~= '1' then
  -- learn how long holds last, so waiters can poll just in time (moving average, weight 1/4)
  local held = now_ms - tonumber(state[3])
  local mean = tonumber(redis.call('HGET', stats_key, 'h') or held)
  redis.call('HSET', stats_key, 'h', math.floor(mean + (held - mean) / 4))
  redis.call('PEXPIRE', stats_key, stats_ttl)
end
redis.call('DEL', lock_key)
grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, nil)
return op_put(op_key, {1, 0}, op_ttl)
