-- Change the configured total by `delta` (negative allowed, as in Redisson): the available count
-- moves by the same amount and may fall below zero while acquisitions are outstanding. Creates
-- the semaphore when it is not set. Refused when the total would fall below zero.
-- KEYS[1] state hash   KEYS[2] waiter queue   KEYS[3] waiter deadlines   KEYS[4] direct grants
-- KEYS[5] this operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] delta   ARGV[2] operation record ttl ms   ARGV[3] claim window ms   ARGV[4] grant channel prefix
-- ARGV[5] quarantine ms (0: off)   ARGV[6] sentinel ttl ms
-- Returns {status, available, total}: 1 applied, 0 refused (the total would be negative)
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, queue_key, deadlines_key, grants_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local delta, op_ttl, claim_ms, channel_prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[5]), ttl = tonumber(ARGV[6])}

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local available = reclaim(state_key, grants_key)
local total = tonumber(redis.call('HGET', state_key, 't') or '0')
if total + delta < 0 then return op_put(op_key, {0, available, total}, op_ttl) end
redis.call('HSET', state_key, 'a', available + delta, 't', total + delta)
grant_heads(state_key, queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine)
return op_put(op_key, {1, tonumber(redis.call('HGET', state_key, 'a')), total + delta}, op_ttl)
