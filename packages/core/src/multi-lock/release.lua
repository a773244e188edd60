-- Release one hold of each of several reentrant locks sharing one hash tag, as one operation of
-- the protocol (docs/protocol.md); a lock whose count reaches zero is handed to its first live
-- waiter, as the Lock's release does.
-- @protocol
-- @key locks...  per lock i (1..n), five keys: lock hash, fence counter, waiter queue, waiter
--   deadlines, hold statistics
-- @arg owner
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg statsTtlMs  statistics ttl ms
-- @arg perLock...  fence_1..fence_n (the fence the caller holds), then the grant channel
--   prefixes of the n locks
-- @reply slots...
--   released_1..released_n (1, or 0 when lock i is not held by this owner and fence: the others
--   are released regardless), remaining_1..remaining_n
-- @include ../common/fence.lua
-- @include ../lock/_grant-head.lua
local owner, claim_ms = ARGV[1], tonumber(ARGV[2])
local fence_ttl, stats_ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local n = (#KEYS - 2) / 5
local function key(i, j) return KEYS[(i - 1) * 5 + j] end

local released, remaining = {}, {}
for i = 1, n do
  local lock_key = key(i, 1)
  local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'g')
  released[i], remaining[i] = 0, 0
  if state[1] == owner and state[2] == ARGV[4 + i] then
    released[i] = 1
    remaining[i] = redis.call('HINCRBY', lock_key, 'c', -1)
    if remaining[i] <= 0 then
      remaining[i] = 0
      if state[4] ~= '1' then
        local held = now_ms - tonumber(state[3])
        local mean = tonumber(redis.call('HGET', key(i, 5), 'h') or held)
        redis.call('HSET', key(i, 5), 'h', math.floor(mean + (held - mean) / 4))
        redis.call('PEXPIRE', key(i, 5), stats_ttl)
      end
      redis.call('DEL', lock_key)
      grant_head(lock_key, key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[4 + n + i], nil)
    end
  end
end
local out = {}
for i = 1, n do out[i] = released[i] end
for i = 1, n do out[n + i] = remaining[i] end
return out
