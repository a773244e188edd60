-- Read-only view of one latch.
-- @key latch  latch hash
-- @reply count pttl
--   count 0 when the latch is open (unset, counted down, or expired)
local count = redis.call('HGET', KEYS[1], 'c')
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
