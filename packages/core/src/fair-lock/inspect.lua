-- Read-only view of one fair lock. An unclaimed direct grant counts as locked (the lock is
-- reserved) but as no hold of the grantee yet. Waiters are those whose deadline has not passed.
-- @key lock  lock hash
-- @key deadlines  waiter poll deadlines
-- @arg owner  owner asking (may be empty)
-- @reply locked mine pttl fence waiters count
--   mine: the count held by owner; count: the total count
local waiters = redis.call('ZCOUNT', KEYS[2], now_ms, '+inf')
local state = redis.call('HMGET', KEYS[1], 'o', 'c', 'f', 'g')
if not state[1] then return {0, 0, 0, 0, waiters, 0} end
local count = tonumber(state[2])
local mine = 0
if state[1] == ARGV[1] and state[4] ~= '1' then mine = count end
return {1, mine, redis.call('PTTL', KEYS[1]), tonumber(state[3]), waiters, count}
