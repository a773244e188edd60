-- Count down by one, exactly once per operation id: a retried or late copy returns the first
-- answer and counts nothing. At zero the latch key is deleted (the latch is open, as in Redisson)
-- and a message goes out on the latch channel for waiters listening by push.
-- KEYS[1] latch hash: c count, ttl   KEYS[2] this operation's record
-- ARGV[1] operation record ttl ms   ARGV[2] latch channel
-- Returns {status, count after}: 1 counted, 0 nothing to count (unset or already open)
-- @include ../common/op-record.lua
local latch_key, op_key = KEYS[1], KEYS[2]
local op_ttl, channel = tonumber(ARGV[1]), ARGV[2]

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

if not redis.call('HGET', latch_key, 'c') then return op_put(op_key, {0, 0}, op_ttl) end
local count = redis.call('HINCRBY', latch_key, 'c', -1)
if count <= 0 then
  redis.call('DEL', latch_key)
  redis.call('PUBLISH', channel, 'open')
  return op_put(op_key, {1, 0}, op_ttl)
end
-- an active latch never expires under its counters: each count-down restarts its ttl
redis.call('PEXPIRE', latch_key, tonumber(redis.call('HGET', latch_key, 'ttl')))
return op_put(op_key, {1, count}, op_ttl)
