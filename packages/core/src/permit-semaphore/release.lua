-- Release one permit by id, then hand the freed permit to the head of the queue.
-- KEYS[1] state hash   KEYS[2] permits   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] this operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] permit id   ARGV[2] operation record ttl ms   ARGV[3] claim window ms   ARGV[4] grant channel prefix
-- ARGV[5] quarantine ms (0: off)   ARGV[6] sentinel ttl ms
-- Returns {status, available}: 1 released, 0 no such live permit (released before, or expired)
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, permits_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local permit, op_ttl, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[5]), ttl = tonumber(ARGV[6])}

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

reclaim(permits_key)
local removed = redis.call('ZREM', permits_key, permit)
grant_heads(state_key, permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, nil, quarantine)
return op_put(op_key, {removed, available(state_key, permits_key)}, op_ttl)
