-- Phase 1 of a quorum grant, on one of the N independent databases: take the lock here if it is
-- free, and report the fence this database would accept next. No fence is stored yet: the client
-- stores the largest candidate of a majority back on a majority (commit.lua) before granting.
-- KEYS[1] lock hash: o token of the acquisition, f its fence once committed
-- KEYS[2] fence counter (the largest fence committed here)
-- KEYS[3] this acquisition's operation record (the token is the operation id)
-- KEYS[4] this database's restart-quarantine sentinel
-- ARGV[1] token (random per acquisition attempt)   ARGV[2] lease ms   ARGV[3] operation record ttl ms
-- ARGV[4] quarantine ms (0: off)   ARGV[5] sentinel ttl ms
-- Returns {status, candidate fence, pttl}: status 1 taken, 0 busy (pttl of the holder's lease),
--   -1 the acquisition was already released here (a late copy: it must not take the lock),
--   -3 quarantined: this database lost its data and grants nothing for pttl more ms (a restart
--   without persistence is the quorum's known weak spot; this is Redlock's "delayed restart")
-- @include ../common/now.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
local lock_key, fence_key, op_key = KEYS[1], KEYS[2], KEYS[3]
local token, lease, op_ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local quarantine = {key = KEYS[4], ms = tonumber(ARGV[4]), ttl = tonumber(ARGV[5])}

local previous = op_get(op_key)
if previous == 'x' then return {-1, 0, 0} end
if previous then return previous end

if redis.call('EXISTS', lock_key) == 1 then return {0, 0, redis.call('PTTL', lock_key)} end
local left = quarantine_left(quarantine)
if left > 0 then return {-3, 0, left} end
redis.call('HSET', lock_key, 'o', token, 'f', 0)
redis.call('PEXPIRE', lock_key, lease)
-- max(stored + 1, server time in µs), as the Lock's fence: still increasing here after the
-- counter expired or this database lost its data, while its clock does not go back.
local stored = tonumber(redis.call('GET', fence_key) or '0')
local candidate = math.max(stored + 1, now_us)
return op_put(op_key, {1, candidate, lease}, op_ttl)
