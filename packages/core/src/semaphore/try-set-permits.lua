-- Set the semaphore's permits when it is not set yet (Redisson's trySetPermits), then serve any
-- waiters that queued before it existed.
-- @protocol
-- @key state  state hash (see acquire.lua)
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key grants  direct grants
-- @arg permits
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @reply status available total
--   status 1 set, 0 already set (nothing changed)
-- @include _grant-heads.lua
local state_key, queue_key, deadlines_key, grants_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local permits, claim_ms, channel_prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]

local available, total = load_state(state_key, grants_key)
if total then return {0, available, total} end
available = grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine, permits)
redis.call('HSET', state_key, 'a', available, 't', permits)
return {1, available, permits}
