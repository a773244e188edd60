-- Release a quorum lock's hold on one database, as one operation of the protocol. Where the
-- acquisition did not take the lock here, tombstone it (its record, KEYS[2]) until the later of
-- its deadline and this release's, plus the margin: a copy of its acquire still in flight when
-- the client gave up answers TOMBSTONED and cannot take the lock here for nobody. Where it did,
-- its own record already answers every later copy (it lives until the acquire's deadline plus
-- the margin, and no copy applies after the deadline), so the release only deletes the lock.
-- @protocol
-- @key lock  lock hash (see acquire.lua)
-- @key acquisition  the acquire's operation record (`…:op:<token>`)
-- @arg token
-- @arg acquireDeadline  the acquire's deadline on this database (server ms; 0 when unknown,
--   e.g. a hold resumed in another process: its copies are long past it)
-- @reply status
--   status 1 released, 0 not held here by this token
if redis.call('HGET', KEYS[1], 'o') == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return {1}
end
local until_ms = math.max(tonumber(ARGV[2]), op_deadline) + op_margin
redis.call('SET', KEYS[2], 'x', 'PX', math.max(until_ms - now_ms, 1))
return {0}
