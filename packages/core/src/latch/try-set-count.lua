-- Set the count when the latch is open (unset or counted down to zero), as Redisson's trySetCount.
-- The latch expires `ttl` ms after it was set or last counted down, so no latch key is permanent.
-- KEYS[1] latch hash: c count, ttl   KEYS[2] this operation's record
-- ARGV[1] count   ARGV[2] ttl ms   ARGV[3] operation record ttl ms   ARGV[4] latch channel
-- Returns {status, count}: 1 set, 0 already counting (count is the current one)
-- @include ../common/op-record.lua
local latch_key, op_key = KEYS[1], KEYS[2]
local count, ttl, op_ttl, channel = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local current = redis.call('HGET', latch_key, 'c')
if current then return op_put(op_key, {0, tonumber(current)}, op_ttl) end
redis.call('HSET', latch_key, 'c', count, 'ttl', ttl)
redis.call('PEXPIRE', latch_key, ttl)
redis.call('PUBLISH', channel, 'set:' .. count)
return op_put(op_key, {1, count}, op_ttl)
