-- Acquire several reentrant locks that share one hash tag (one cluster slot): all or none, in one
-- step. They are the Lock's own keys, so a multi-lock excludes plain Locks on the same names.
-- For lock i (1..n), five keys from KEYS[5i-4]: lock hash, fence counter, waiter queue,
-- waiter deadlines, hold statistics; then KEYS[5n+1] this operation's record and KEYS[5n+2] the
-- restart-quarantine sentinel.
-- ARGV[1] owner   ARGV[2] lease ms   ARGV[3] claim window ms   ARGV[4] operation record ttl ms
-- ARGV[5] fence counter ttl ms   ARGV[5+i] grant channel prefix of lock i
-- ARGV[6+n] quarantine ms (0: off)   ARGV[7+n] sentinel ttl ms
-- Returns {status, pttl, kind_1..kind_n, fence_1..fence_n}
--   status 1 all taken (pttl = shortest lease among them), 0 busy, nothing taken (pttl = longest
--   remaining lease among the holders in the way), -1 abandoned operation, -3 quarantined, nothing
--   taken (pttl = ms left of the restart quarantine)
--   kind_i 1 newly granted, 2 re-entered
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include ../lock/_grant-head.lua
local owner, lease, claim_ms = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local op_ttl, fence_ttl = tonumber(ARGV[4]), tonumber(ARGV[5])
local n = (#KEYS - 2) / 5
local op_key = KEYS[5 * n + 1]
local quarantine = {key = KEYS[5 * n + 2], ms = tonumber(ARGV[6 + n]), ttl = tonumber(ARGV[7 + n])}
local function key(i, j) return KEYS[(i - 1) * 5 + j] end

local function answer(status, pttl, kinds, fences)
  local out = {status, pttl}
  for i = 1, n do out[#out + 1] = kinds[i] or 0 end
  for i = 1, n do out[#out + 1] = fences[i] or 0 end
  return out
end

local previous = op_get(op_key)
if previous == 'x' then return answer(-1, 0, {}, {}) end
if previous then return previous end

-- Pass 1, no change of ours yet: is every lock free or already ours? A free lock with a live
-- queued waiter goes to that waiter first, exactly as a plain acquire would do. A free lock means
-- a new grant: not while quarantined.
local busy, longest = false, 0
for i = 1, n do
  local holder = redis.call('HGET', key(i, 1), 'o')
  if not holder then
    local left = quarantine_left(quarantine)
    if left > 0 then return answer(-3, left, {}, {}) end
    holder = grant_head(key(i, 1), key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[5 + i], owner)
  end
  if holder and holder ~= owner then
    busy = true
    longest = math.max(longest, redis.call('PTTL', key(i, 1)))
  end
end
if busy then return answer(0, longest, {}, {}) end

-- Pass 2: take them all (the Lock's grant, claim and re-entry rules, lock by lock).
local kinds, fences, shortest = {}, {}, nil
for i = 1, n do
  local lock_key = key(i, 1)
  if redis.call('EXISTS', lock_key) == 0 then
    local fence = next_fence(key(i, 2), fence_ttl)
    redis.call('HSET', lock_key, 'o', owner, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    kinds[i] = 1
  elseif redis.call('HGET', lock_key, 'g') == '1' then
    redis.call('HDEL', lock_key, 'g')
    redis.call('PEXPIRE', lock_key, lease)
    kinds[i] = 1
  else
    redis.call('HINCRBY', lock_key, 'c', 1)
    if redis.call('PTTL', lock_key) < lease then redis.call('PEXPIRE', lock_key, lease) end
    kinds[i] = 2
  end
  redis.call('ZREM', key(i, 3), owner)
  redis.call('ZREM', key(i, 4), owner)
  fences[i] = tonumber(redis.call('HGET', lock_key, 'f'))
  local pttl = redis.call('PTTL', lock_key)
  if not shortest or pttl < shortest then shortest = pttl end
end
return op_put(op_key, answer(1, shortest, kinds, fences), op_ttl)
