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
-- The counter only moves up. While this acquisition holds the lock here nobody else commits
-- here, so the chosen fence (above this database's own candidate) is the larger one; SET … GET
-- saves reading it first, and the rare smaller case (a counter set ahead of the clock) puts the
-- old value back.
local ttl = tonumber(ARGV[3])
local previous = redis.call('SET', KEYS[2], ARGV[2], 'PX', ttl, 'GET')
if previous and tonumber(previous) > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], previous, 'PX', ttl)
end
redis.call('HSET', KEYS[1], 'f', ARGV[2])
return {1}
