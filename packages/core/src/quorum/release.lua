-- Release a quorum lock's hold on one database, and mark the acquisition released so that a
-- late copy of its acquire (still in flight when the client gave up) cannot take the lock here.
-- KEYS[1] lock hash   KEYS[2] the acquisition's operation record
-- ARGV[1] token   ARGV[2] operation record ttl ms
-- Returns {1} released, {0} not held here by this token
redis.call('SET', KEYS[2], 'x', 'PX', tonumber(ARGV[2]))
if redis.call('HGET', KEYS[1], 'o') ~= ARGV[1] then return {0} end
redis.call('DEL', KEYS[1])
return {1}
