-- Read-only view of one permit-expirable semaphore; expired permits count as free.
-- @key state  state hash
-- @key permits  permits
-- @key queue  waiter queue
-- @reply set available total live waiters
local total = redis.call('HGET', KEYS[1], 't')
local live = redis.call('ZCOUNT', KEYS[2], now_ms, '+inf')
if not total then return {0, -live, 0, live, redis.call('ZCARD', KEYS[3])} end
return {1, tonumber(total) - live, tonumber(total), live, redis.call('ZCARD', KEYS[3])}
