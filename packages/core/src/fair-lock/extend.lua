-- Renew a claimed hold: set its remaining lease. Idempotent (it sets an absolute lease), so it
-- needs no operation record; the fence pins it to one acquisition, so a late copy cannot touch a
-- later one. An unclaimed direct grant is not a hold yet and cannot be extended.
-- KEYS[1] lock hash   ARGV[1] owner   ARGV[2] fence   ARGV[3] lease ms
-- Returns {status, pttl}: 1 renewed, 0 not held by this owner and fence
local state = redis.call('HMGET', KEYS[1], 'o', 'f', 'g')
if state[1] ~= ARGV[1] or state[2] ~= ARGV[2] or state[3] == '1' then return {0, 0} end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, tonumber(ARGV[3])}
