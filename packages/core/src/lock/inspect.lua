-- Read-only view of one lock.
-- KEYS[1] lock hash   KEYS[2] waiter queue   ARGV[1] owner asking (may be empty)
-- Returns {locked, count held by ARGV[1], pttl, fence, queue length, total count}
local state = redis.call('HMGET', KEYS[1], 'o', 'c', 'f')
if not state[1] then return {0, 0, 0, 0, redis.call('ZCARD', KEYS[2]), 0} end
local count = tonumber(state[2])
local mine = 0
if state[1] == ARGV[1] then mine = count end
return {1, mine, redis.call('PTTL', KEYS[1]), tonumber(state[3]), redis.call('ZCARD', KEYS[2]), count}
