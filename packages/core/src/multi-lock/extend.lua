-- Renew several holds sharing one hash tag, ordered by each lock's lease version (`v`, as the
-- Lock's extend.lua), as one operation of the protocol (docs/protocol.md). All or nothing: when
-- any lock's version is not the one the caller saw (another renewal of it applied first), nothing
-- changes and every lock answers stale with its current version and lease, so a late copy of an
-- old renewal can never undo a newer one. A lock no longer held by this owner and fence answers
-- 0 (the others are renewed). Claims an unclaimed direct grant too; may shorten the lease.
-- @protocol
-- @key locks...  lock hash of lock i (1..n)
-- @arg owner
-- @arg leaseMs
-- @arg perLock...  fence_1..fence_n, then version_1..version_n (the lease versions last seen)
-- @reply slots...
--   status_1..status_n (1 renewed, 2 stale, 0 not held by this owner and fence),
--   version_1..version_n (after the renewal, or the server's), pttl_1..pttl_n
local owner, lease = ARGV[1], tonumber(ARGV[2])
local n = #KEYS - 2
local status, versions, pttls, stale = {}, {}, {}, false
for i = 1, n do
  local state = redis.call('HMGET', KEYS[i], 'o', 'f', 'v', 'g')
  status[i], versions[i], pttls[i] = 0, 0, 0
  if state[1] == owner and state[2] == ARGV[2 + i] then
    versions[i] = tonumber(state[3] or '0')
    if versions[i] ~= tonumber(ARGV[2 + n + i]) then stale = true end
    status[i] = state[4] == '1' and 3 or 1
  end
end
for i = 1, n do
  if status[i] ~= 0 then
    if stale then
      status[i], pttls[i] = 2, redis.call('PTTL', KEYS[i])
    else
      if status[i] == 3 then redis.call('HDEL', KEYS[i], 'g') end
      versions[i] = versions[i] + 1
      redis.call('HSET', KEYS[i], 'v', versions[i])
      redis.call('PEXPIRE', KEYS[i], lease)
      status[i], pttls[i] = 1, lease
    end
  end
end
local out = {}
for i = 1, n do out[#out + 1] = status[i] end
for i = 1, n do out[#out + 1] = versions[i] end
for i = 1, n do out[#out + 1] = pttls[i] end
return out
