-- Renew a quorum lock's hold on one database, ordered by its lease version (`v`, absent = 0; a
-- new acquisition starts at 0), as the Lock's extend.lua: several renewals of one hold (its
-- keeper, `extend()`, a resume elsewhere) may be in flight or late, so only the version here can
-- order them. A renewal applies only to the version it saw, bumps it and returns it; one that saw
-- an older version answers stale with the current version and lease and changes nothing, so a
-- late copy of an old renewal can never undo a newer one. May shorten the lease.
-- @protocol
-- @key lock  lock hash: o token of the acquisition, f its fence, v lease version
-- @arg token
-- @arg version  the lease version the caller last saw here
-- @arg leaseMs
-- @reply status version pttl
--   status 1 renewed (version = the new one), 2 stale (version and pttl are the server's), 0 not
--   held here by this token
local state = redis.call('HMGET', KEYS[1], 'o', 'v')
if state[1] ~= ARGV[1] then return {0, 0, 0} end
local version = tonumber(state[2] or '0')
if version ~= tonumber(ARGV[2]) then return {2, version, redis.call('PTTL', KEYS[1])} end
redis.call('HSET', KEYS[1], 'v', version + 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, version + 1, tonumber(ARGV[3])}
