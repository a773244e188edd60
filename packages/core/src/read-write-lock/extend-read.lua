-- Renew one reader: set its remaining lease. Idempotent (an absolute lease), so it needs no
-- operation record; the fence pins it to one read session. An expired reader cannot be renewed.
-- KEYS[1] readers   KEYS[2] reader holds   ARGV[1] owner   ARGV[2] fence   ARGV[3] lease ms
-- Returns {status, pttl}: 1 renewed, 0 not held by this owner and fence
-- @include ../common/now.lua
-- @include _readers.lua
local readers_key, holds_key, owner, lease = KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[3])
local expiry = tonumber(redis.call('ZSCORE', readers_key, owner))
if not expiry or expiry <= now_ms or redis.call('HGET', holds_key, 'f' .. owner) ~= ARGV[2] then return {0, 0} end
redis.call('ZADD', readers_key, now_ms + lease, owner)
readers_ttl(readers_key, holds_key)
return {1, lease}
