-- Phase 2 of a quorum grant, as one operation of the protocol: store the chosen fence on this
-- database, if the acquisition still holds the lock here. Recorded and refused past its
-- deadline like every mutation, so a late copy after the attempt gave up applies nothing.
-- @protocol
-- @key lock  lock hash (see acquire.lua)
-- @key fence  fence counter
-- @arg token
-- @arg fence  chosen by the client (the largest candidate of a majority)
-- @arg fenceTtlMs  fence counter ttl ms
-- @reply status
--   status 1 stored, 0 this database no longer holds the lock for this token
if redis.call('HGET', KEYS[1], 'o') ~= ARGV[1] then return {0} end
local stored = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) > stored then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', tonumber(ARGV[3]))
else
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
end
redis.call('HSET', KEYS[1], 'f', ARGV[2])
return {1}
