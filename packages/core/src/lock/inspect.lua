-- Read-only view of one lock.
-- @key lock  lock hash
-- @key queue  waiter queue
-- @arg owner  owner asking (may be empty)
-- @reply locked mine pttl fence waiters count
--   mine: the count held by owner; count: the total count
local state = redis.call('HMGET', KEYS[1], 'o', 'c', 'f')
if not state[1] then return {0, 0, 0, 0, redis.call('ZCARD', KEYS[2]), 0} end
local count = tonumber(state[2])
local mine = 0
if state[1] == ARGV[1] then mine = count end
return {1, mine, redis.call('PTTL', KEYS[1]), tonumber(state[3]), redis.call('ZCARD', KEYS[2]), count}
