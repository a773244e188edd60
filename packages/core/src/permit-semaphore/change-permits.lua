-- trySetPermits (mode 'set': only when not set yet) and addPermits (mode 'add': change the total
-- by a delta, negative allowed, as in Redisson; refused below zero). Then serve waiting heads.
-- KEYS[1] state hash   KEYS[2] permits   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] this operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] mode   ARGV[2] amount   ARGV[3] operation record ttl ms   ARGV[4] claim window ms
-- ARGV[5] grant channel prefix   ARGV[6] quarantine ms (0: off)   ARGV[7] sentinel ttl ms
-- Returns {status, available, total}: 1 applied, 0 refused (already set / total below zero)
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, permits_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local mode, amount, op_ttl, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[6]), ttl = tonumber(ARGV[7])}

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

reclaim(permits_key)
local total = tonumber(redis.call('HGET', state_key, 't') or '0')
local refused = (mode == 'set' and redis.call('EXISTS', state_key) == 1) or (mode == 'add' and total + amount < 0)
if refused then return op_put(op_key, {0, available(state_key, permits_key), total}, op_ttl) end
if mode == 'set' then total = amount else total = total + amount end
redis.call('HSET', state_key, 't', total)
grant_heads(state_key, permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, nil, quarantine)
return op_put(op_key, {1, available(state_key, permits_key), total}, op_ttl)
