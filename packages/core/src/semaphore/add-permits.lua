-- Change the configured total by `delta` (negative allowed, as in Redisson): the available count
-- moves by the same amount and may fall below zero while acquisitions are outstanding. Creates
-- the semaphore when it is not set. Refused when the total would fall below zero.
-- @protocol
-- @key state  state hash (see acquire.lua)
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key grants  direct grants
-- @arg delta
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @reply status available total
--   status 1 applied, 0 refused (the total would be negative)
-- @include _grant-heads.lua
local state_key, queue_key, deadlines_key, grants_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local delta, claim_ms, channel_prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]

local available, total = load_state(state_key, grants_key)
total = total or 0
if total + delta < 0 then return {0, available, total} end
available = grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine, available + delta)
redis.call('HSET', state_key, 'a', available, 't', total + delta)
return {1, available, total + delta}
