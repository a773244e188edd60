-- Renew a claimed hold of the fair lock (and of the read-write lock's writer, same layout),
-- ordered by its lease version: several client objects may renew one lease (the handle, a
-- resume() elsewhere, a keeper), so only the version on the server can order them. A renewal
-- applies only to the version it saw, bumps it and returns it; one that saw an older version
-- answers stale (with the current version and lease), never "not held", so a late copy of an old
-- renewal can never undo a newer one. May shorten the lease (as Redisson's updateLeaseTime).
-- Claims an unclaimed direct grant too (version 0), as the Lock's extend does: a waiter told of
-- its grant on its channel enters at once and claims in the background (as acquiring would: the
-- grant becomes a hold with the full lease).
-- @protocol
-- @key lock  lock hash (see acquire.lua)
-- @arg owner
-- @arg fence  the acquisition being renewed
-- @arg version  the lease version the caller last saw
-- @arg leaseMs
-- @reply status version pttl
--   status 1 renewed (version = the new one), 2 stale (nothing changed: version and pttl are the
--   server's), 0 not held by this owner and fence
local state = redis.call('HMGET', KEYS[1], 'o', 'f', 'v', 'g')
if state[1] ~= ARGV[1] or state[2] ~= ARGV[2] then return {0, 0, 0} end
local version = tonumber(state[3] or '0')
if version ~= tonumber(ARGV[3]) then return {2, version, redis.call('PTTL', KEYS[1])} end
if state[4] == '1' then redis.call('HDEL', KEYS[1], 'g') end
redis.call('HSET', KEYS[1], 'v', version + 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return {1, version + 1, tonumber(ARGV[4])}
