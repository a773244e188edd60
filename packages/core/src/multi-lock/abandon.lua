-- Undo a multi-lock acquire whose caller gave up (aborted, unknown outcome) or that is rolled
-- back because a later group of names was busy: mark the operation abandoned, so a late copy of
-- it does nothing, and give back exactly the one hold level it took on each lock.
-- For lock i (1..n), four keys from KEYS[4i-3]: lock hash, fence counter, waiter queue, waiter
-- deadlines; then KEYS[4n+1] the abandoned operation's record.
-- ARGV[1] owner   ARGV[2] operation record ttl ms   ARGV[3] claim window ms
-- ARGV[4] fence counter ttl ms   ARGV[4+i] grant channel prefix of lock i
-- Returns {count of locks given back}
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../lock/_grant-head.lua
local owner, op_ttl, claim_ms, fence_ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local n = (#KEYS - 1) / 4
local op_key = KEYS[#KEYS]
local function key(i, j) return KEYS[(i - 1) * 4 + j] end

local previous = op_get(op_key)
redis.call('SET', op_key, 'x', 'PX', op_ttl)
if previous == 'x' or not previous or previous[1] ~= 1 then return {0} end

local given = 0
for i = 1, n do
  local lock_key = key(i, 1)
  local state = redis.call('HMGET', lock_key, 'o', 'f')
  if state[1] == owner and tonumber(state[2]) == previous[2 + n + i] then
    given = given + 1
    if redis.call('HINCRBY', lock_key, 'c', -1) <= 0 then
      redis.call('DEL', lock_key)
      grant_head(lock_key, key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[4 + i], nil)
    end
  end
end
return {given}
