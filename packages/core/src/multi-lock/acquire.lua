-- Acquire several reentrant locks that share one hash tag (one cluster slot): all or none, in one
-- step, as one operation of the protocol (docs/protocol.md): a busy answer is recorded too, so a
-- late copy of an attempt that answered busy can never take the locks later. They are the Lock's
-- own keys (lease version `v` included: a new grant starts at 0, a re-entry leaves it), so a
-- multi-lock excludes plain Locks on the same names.
-- @protocol
-- @key locks...  per lock i (1..n), five keys: lock hash, fence counter, waiter queue, waiter
--   deadlines, hold statistics
-- @arg owner
-- @arg leaseMs
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefixes...  grant channel prefix of lock i
-- @reply status pttl slots...
--   status 1 all taken (pttl = shortest lease among them), 0 busy, nothing taken (pttl = longest
--   remaining lease among the holders in the way), -3 quarantined, nothing taken (pttl = ms left
--   of the restart quarantine); slots: kind_1..kind_n (1 newly granted, 2 re-entered),
--   fence_1..fence_n, version_1..version_n (each lock's lease version)
-- @include ../common/fence.lua
-- @include ../common/live-pttl.lua
-- @include ../lock/_grant-head.lua
local owner, lease, claim_ms, fence_ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local n = (#KEYS - 2) / 5
local function key(i, j) return KEYS[(i - 1) * 5 + j] end

local function answer(status, pttl, kinds, fences, versions)
  local out = {status, pttl}
  for i = 1, n do out[#out + 1] = kinds[i] or 0 end
  for i = 1, n do out[#out + 1] = fences[i] or 0 end
  for i = 1, n do out[#out + 1] = versions[i] or 0 end
  return out
end

-- Pass 1, no change of ours yet: is every lock free or already ours? A free lock with a live
-- queued waiter goes to that waiter first, exactly as a plain acquire would do. A free lock means
-- a new grant: not while quarantined.
local busy, longest, free = false, 0, {}
for i = 1, n do
  local holder = redis.call('HGET', key(i, 1), 'o')
  if not holder then
    local left = quarantine_left(quarantine)
    if left > 0 then return answer(-3, left, {}, {}, {}) end
    holder = grant_head(key(i, 1), key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[4 + i], owner)
    free[i] = not holder
  end
  if holder and holder ~= owner then
    busy = true
    longest = math.max(longest, live_pttl(key(i, 1)))
  end
end
if busy then return answer(0, longest, {}, {}, {}) end

-- Pass 2: take them all (the Lock's grant, claim and re-entry rules, lock by lock).
local kinds, fences, versions, shortest = {}, {}, {}, nil
for i = 1, n do
  local lock_key = key(i, 1)
  local pttl = lease
  if free[i] then
    local fence = next_fence(key(i, 2), fence_ttl)
    redis.call('HSET', lock_key, 'o', owner, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    kinds[i], fences[i], versions[i] = 1, fence, 0
  else
    local state = redis.call('HMGET', lock_key, 'g', 'f', 'v')
    if state[1] == '1' then
      redis.call('HDEL', lock_key, 'g')
      redis.call('PEXPIRE', lock_key, lease)
      kinds[i] = 1
    else
      redis.call('HINCRBY', lock_key, 'c', 1)
      pttl = redis.call('PTTL', lock_key)
      if pttl < lease then
        redis.call('PEXPIRE', lock_key, lease)
        pttl = lease
      end
      kinds[i] = 2
    end
    redis.call('ZREM', key(i, 3), owner)
    redis.call('ZREM', key(i, 4), owner)
    fences[i], versions[i] = tonumber(state[2]), tonumber(state[3] or '0')
  end
  if not shortest or pttl < shortest then shortest = pttl end
end
return answer(1, shortest, kinds, fences, versions)
