-- Renew one reader, ordered by its lease version (see ../fair-lock/extend.lua): applies only to
-- the version the caller saw, bumps it and returns it; a renewal that saw an older version
-- answers stale with the current version and lease, so a late copy of an old renewal can never
-- undo a newer one. May shorten the reader's lease. An expired reader cannot be renewed.
-- @protocol
-- @key readers  readers (zset owner -> expiry ms)
-- @key holds  reader holds (hash: c<owner> count, f<owner> fence, v<owner> lease version)
-- @arg owner
-- @arg fence  the read session being renewed
-- @arg version  the lease version the caller last saw
-- @arg leaseMs
-- @reply status version pttl
--   status 1 renewed (version = the new one), 2 stale (nothing changed: version and pttl are the
--   server's), 0 not held by this owner and fence
-- @include _readers.lua
local readers_key, holds_key, owner, lease = KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[4])
local expiry = tonumber(redis.call('ZSCORE', readers_key, owner))
if not expiry or expiry <= now_ms then return {0, 0, 0} end
local mine = redis.call('HMGET', holds_key, 'f' .. owner, 'v' .. owner)
if mine[1] ~= ARGV[2] then return {0, 0, 0} end
local version = tonumber(mine[2] or '0')
if version ~= tonumber(ARGV[3]) then return {2, version, expiry - now_ms} end
redis.call('HSET', holds_key, 'v' .. owner, version + 1)
redis.call('ZADD', readers_key, now_ms + lease, owner)
readers_ttl(readers_key, holds_key)
return {1, version + 1, lease}
