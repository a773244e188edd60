-- Release one hold of each of several reentrant locks sharing one hash tag; a lock whose count
-- reaches zero is handed to its first live waiter, as the Lock's release does.
-- For lock i (1..n), five keys from KEYS[5i-4]: lock hash, fence counter, waiter queue,
-- waiter deadlines, hold statistics; then KEYS[5n+1] this operation's record.
-- ARGV[1] owner   ARGV[2] operation record ttl ms   ARGV[3] claim window ms
-- ARGV[4] fence counter ttl ms   ARGV[5] statistics ttl ms
-- ARGV[5+i] fence of lock i the caller holds   ARGV[5+n+i] grant channel prefix of lock i
-- Returns {released_1..released_n, remaining_1..remaining_n}: released_i 1, or 0 when lock i is
-- not held by this owner and fence (the others are released regardless)
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../lock/_grant-head.lua
local owner, op_ttl, claim_ms = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local fence_ttl, stats_ttl = tonumber(ARGV[4]), tonumber(ARGV[5])
local n = (#KEYS - 1) / 5
local op_key = KEYS[#KEYS]
local function key(i, j) return KEYS[(i - 1) * 5 + j] end

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local released, remaining = {}, {}
for i = 1, n do
  local lock_key = key(i, 1)
  local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'g')
  released[i], remaining[i] = 0, 0
  if state[1] == owner and state[2] == ARGV[5 + i] then
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
      grant_head(lock_key, key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[5 + n + i], nil)
    end
  end
end
local out = {}
for i = 1, n do out[i] = released[i] end
for i = 1, n do out[n + i] = remaining[i] end
return op_put(op_key, out, op_ttl)
