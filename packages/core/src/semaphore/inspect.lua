-- Read-only view of one semaphore; counts unclaimed grants past their claim deadline as free.
-- @key state  state hash
-- @key queue  waiter queue
-- @key grants  direct grants
-- @reply set available total waiters unclaimed
local state = redis.call('HMGET', KEYS[1], 'a', 't')
if not state[2] then return {0, 0, 0, redis.call('ZCARD', KEYS[2]), 0} end
local available = tonumber(state[1])
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. now_ms)) do
  available = available + tonumber(string.match(member, '^(%d+):'))
end
return {1, available, tonumber(state[2]), redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3])}
