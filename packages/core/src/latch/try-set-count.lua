-- Set the count when the latch is open (unset or counted down to zero), as Redisson's
-- trySetCount, exactly once per operation (docs/protocol.md). The latch expires `ttl` ms after it
-- was set or last counted down, so no latch key is permanent.
-- @protocol
-- @key latch  latch hash: c count, ttl ms
-- @arg count
-- @arg ttlMs
-- @reply status count
--   status 1 set, 0 already counting (count is the current one)
local current = redis.call('HGET', KEYS[1], 'c')
if current then return {0, tonumber(current)} end
redis.call('HSET', KEYS[1], 'c', ARGV[1], 'ttl', ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return {1, tonumber(ARGV[1])}
