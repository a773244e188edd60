-- Give `permits` back, then hand them to the waiters at the head of the queue. Permits are not
-- owned (as in Redisson), but a release may never raise the count above what was set plus what
-- was added: one beyond the outstanding acquisitions is refused and changes nothing.
-- KEYS[1] state hash   KEYS[2] waiter queue   KEYS[3] waiter deadlines   KEYS[4] direct grants
-- KEYS[5] this operation's record   KEYS[6] restart-quarantine sentinel
-- ARGV[1] permits   ARGV[2] operation record ttl ms   ARGV[3] claim window ms   ARGV[4] grant channel prefix
-- ARGV[5] quarantine ms (0: off)   ARGV[6] sentinel ttl ms
-- Returns {status, available, total}: 1 released, 0 refused (over-release or semaphore not set)
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, queue_key, deadlines_key, grants_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local permits, op_ttl, claim_ms, channel_prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[5]), ttl = tonumber(ARGV[6])}

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local available = reclaim(state_key, grants_key)
local total = tonumber(redis.call('HGET', state_key, 't') or '0')
if available + permits > total then return op_put(op_key, {0, available, total}, op_ttl) end
redis.call('HSET', state_key, 'a', available + permits)
grant_heads(state_key, queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine)
return op_put(op_key, {1, tonumber(redis.call('HGET', state_key, 'a')), total}, op_ttl)
