-- A fenced register: a write is accepted only when its fence is not older than the newest fence
-- accepted so far (so a holder writes several times under one fence, and a stale holder whose
-- fence was overtaken is rejected). Counts every write (its order) and every accepted one (the
-- version readers compare).
-- KEYS[1] register hash: f newest fence accepted, n writes seen, v writes accepted
-- ARGV[1] fence
-- Returns {accepted 1|0, order, version}
local fence = tonumber(ARGV[1])
local order = redis.call('HINCRBY', KEYS[1], 'n', 1) - 1
local newest = tonumber(redis.call('HGET', KEYS[1], 'f') or '-1')
if fence < newest then
  return {0, order, tonumber(redis.call('HGET', KEYS[1], 'v') or '0')}
end
redis.call('HSET', KEYS[1], 'f', ARGV[1])
return {1, order, redis.call('HINCRBY', KEYS[1], 'v', 1)}
