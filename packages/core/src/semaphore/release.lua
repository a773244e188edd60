-- Give `permits` back, then hand them to the waiters at the head of the queue. Permits are not
-- owned (as in Redisson), but a release may never raise the count above what was set plus what
-- was added: one beyond the outstanding acquisitions is refused and changes nothing.
-- @protocol
-- @key state  state hash (see acquire.lua)
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key grants  direct grants
-- @arg permits
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @reply status available total
--   status 1 released, 0 refused (over-release or semaphore not set)
-- @include _grant-heads.lua
local state_key, queue_key, deadlines_key, grants_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local permits, claim_ms, channel_prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]

local available, total = load_state(state_key, grants_key)
total = total or 0
if available + permits > total then return {0, available, total} end
available = grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine, available + permits)
redis.call('HSET', state_key, 'a', available)
return {1, available, total}
