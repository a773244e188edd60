-- Phase 1 of a quorum grant, on one of the N independent databases, as one operation of the
-- protocol (docs/protocol.md): take the lock here if it is free, and report the fence this
-- database would accept next. No fence is stored yet: the client stores the largest candidate of
-- a majority back on a majority (commit.lua) before granting. The operation id is the
-- acquisition's token, so its record (busy answers included) is what a release tombstones: a late
-- copy of an acquire that answered busy, or that a release overtook, can never take the lock.
-- Quarantined: this database lost its data and grants nothing for pttl more ms (a restart
-- without persistence is the quorum's known weak spot; this is Redlock's "delayed restart").
-- @protocol
-- @key lock  lock hash: o token of the acquisition, f its fence once committed (absent
--   before), v lease version
-- @key fence  fence counter (the largest fence committed here)
-- @arg token  random per acquisition attempt (also the operation id)
-- @arg leaseMs
-- @reply status candidate pttl
--   status 1 taken (candidate: the fence this database would accept), 0 busy (pttl of the
--   holder's lease), -3 quarantined (pttl: what is left of the quarantine)
-- One HSETNX both tests and takes (the protocol's record and TIME already cost three commands).
if redis.call('HSETNX', KEYS[1], 'o', ARGV[1]) == 0 then
  return {0, 0, redis.call('PTTL', KEYS[1])}
end
local left = quarantine_left(quarantine)
if left > 0 then
  redis.call('DEL', KEYS[1])
  return {-3, 0, left}
end
local lease = tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease)
-- max(stored + 1, server time in µs), as the Lock's fence: still increasing here after the
-- counter expired or this database lost its data, while its clock does not go back.
local stored = tonumber(redis.call('GET', KEYS[2]) or '0')
return {1, math.max(stored + 1, now_us), lease}
