-- Renew one permit, ordered by its lease version: several client objects may renew one permit
-- (the holder, a resume() elsewhere, a keeper), so only the version on the server can order them.
-- A renewal applies only to the version it saw, bumps it and returns it; one that saw an older
-- version answers stale (with the current version and lease), never "not held", so a late copy
-- of an old renewal can never undo a newer one. May shorten the lease. An expired permit is never
-- revived.
-- @protocol
-- @key permits  permits (zset id -> expiry, server ms)
-- @key versions  lease versions (hash id -> version; absent: 0)
-- @arg permit  permit id
-- @arg version  the lease version the caller last saw
-- @arg leaseMs
-- @reply status version pttl
--   status 1 renewed (version = the new one), 2 stale (nothing changed: version and pttl are the
--   server's), 0 no such live permit
-- @include _grant-heads.lua
local permits_key, versions_key, permit = KEYS[1], KEYS[2], ARGV[1]
local lease = tonumber(ARGV[3])
local expiry = tonumber(redis.call('ZSCORE', permits_key, permit))
if not expiry or expiry < now_ms then return {0, 0, 0} end
local version = tonumber(redis.call('HGET', versions_key, permit) or '0')
if version ~= tonumber(ARGV[2]) then return {2, version, expiry - now_ms} end
redis.call('ZADD', permits_key, 'XX', now_ms + lease, permit)
redis.call('HSET', versions_key, permit, version + 1)
keep_permits_key(permits_key, now_ms + lease)
-- the version must outlive the permit it orders
if redis.call('PTTL', versions_key) < lease + 1000 then redis.call('PEXPIRE', versions_key, lease + 1000) end
return {1, version + 1, lease}
