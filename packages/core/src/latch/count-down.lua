-- Count down by one, exactly once per operation: the protocol (docs/protocol.md) answers a
-- repeated or late copy with the recorded answer, refuses a copy past its deadline and honours a
-- tombstone (a count-down settled as never applied never counts). At zero the latch key is
-- deleted (the latch is open, as in Redisson) and `open` goes out on the latch channel for
-- waiters listening by push. An active latch never expires under its counters: each count-down
-- restarts its ttl.
-- @protocol
-- @key latch  latch hash: c count, ttl ms
-- @arg channel  the latch channel
-- @reply status remaining
--   status 1 counted (remaining = the count after it), 0 nothing to count (unset or already open)
local state = redis.call('HMGET', KEYS[1], 'c', 'ttl')
if not state[1] then return {0, 0} end
local count = tonumber(state[1]) - 1
if count <= 0 then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[1], 'open')
  return {1, 0}
end
redis.call('HSET', KEYS[1], 'c', count)
redis.call('PEXPIRE', KEYS[1], tonumber(state[2]))
return {1, count}
