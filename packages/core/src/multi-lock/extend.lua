-- Renew several holds sharing one hash tag: set each remaining lease. Idempotent (an absolute
-- lease), so no operation record; each fence pins it to one acquisition of its lock.
-- KEYS[i] lock hash of lock i (1..n)
-- ARGV[1] owner   ARGV[2] lease ms   ARGV[2+i] fence of lock i
-- Returns {renewed_1..renewed_n}: 1 renewed, 0 lock i not held by this owner and fence
local out = {}
for i = 1, #KEYS do
  local state = redis.call('HMGET', KEYS[i], 'o', 'f')
  out[i] = 0
  if state[1] == ARGV[1] and state[2] == ARGV[2 + i] then
    redis.call('HDEL', KEYS[i], 'g')
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]))
    out[i] = 1
  end
end
return out
