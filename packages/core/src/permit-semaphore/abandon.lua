-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue, drop the permit under its waiter id (a direct grant, or what the abandoned operation
-- took: the caller holds neither), and mark the operation so that a late copy does nothing.
-- KEYS[1] state hash   KEYS[2] permits   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] the abandoned operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] waiter id   ARGV[2] operation record ttl ms   ARGV[3] claim window ms   ARGV[4] grant channel prefix
-- ARGV[5] quarantine ms (0: off)   ARGV[6] sentinel ttl ms
-- Returns {1 when a permit was given back, else 0}
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, permits_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local waiter, op_ttl, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[5]), ttl = tonumber(ARGV[6])}

if op_get(op_key) == 'x' then return {0} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
redis.call('ZREM', queue_key, waiter)
redis.call('ZREM', deadlines_key, waiter)
reclaim(permits_key)
local removed = redis.call('ZREM', permits_key, waiter)
grant_heads(state_key, permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, nil, quarantine)
return {removed}
