-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue, give back a direct grant made to it, give back what the abandoned operation took,
-- and mark the operation so that a late copy of it does nothing.
-- KEYS[1] state hash   KEYS[2] waiter queue   KEYS[3] waiter deadlines   KEYS[4] direct grants
-- KEYS[5] the abandoned operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] waiter id   ARGV[2] permits   ARGV[3] operation record ttl ms   ARGV[4] claim window ms
-- ARGV[5] grant channel prefix   ARGV[6] quarantine ms (0: off)   ARGV[7] sentinel ttl ms
-- Returns {permits given back}
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, queue_key, deadlines_key, grants_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local waiter, permits, op_ttl, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local member = permits .. ':' .. waiter
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[6]), ttl = tonumber(ARGV[7])}

local previous = op_get(op_key)
if previous == 'x' then return {0} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
redis.call('ZREM', queue_key, member)
redis.call('ZREM', deadlines_key, member)

local back = 0
if redis.call('ZREM', grants_key, member) == 1 then back = back + permits end
if previous and previous[1] == 1 then back = back + permits end
if back > 0 and redis.call('EXISTS', state_key) == 1 then
  redis.call('HINCRBY', state_key, 'a', back)
end
grant_heads(state_key, queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine)
return {back}
