-- Renew a quorum lock's hold on one database: set its remaining lease. Idempotent.
-- KEYS[1] lock hash   ARGV[1] token   ARGV[2] lease ms
-- Returns {1} renewed, {0} not held here by this token
if redis.call('HGET', KEYS[1], 'o') ~= ARGV[1] then return {0} end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return {1}
