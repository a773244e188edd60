-- Renew one permit: set its remaining lease. Idempotent (an absolute lease), so it needs no
-- operation record; the permit id is unique to one acquisition, so a late copy cannot touch
-- another, and an expired permit is never revived.
-- KEYS[1] permits   ARGV[1] permit id   ARGV[2] lease ms
-- Returns {status, lease ms}: 1 renewed, 0 no such live permit
-- @include ../common/now.lua
-- @include _settle.lua
local permits_key, permit, lease = KEYS[1], ARGV[1], tonumber(ARGV[2])
local expiry = tonumber(redis.call('ZSCORE', permits_key, permit))
if not expiry or expiry < now_ms then return {0, 0} end
redis.call('ZADD', permits_key, 'XX', now_ms + lease, permit)
keep_permits_key(permits_key, now_ms + lease)
return {1, lease}
