-- Undo a multi-lock acquire whose caller gave up (aborted, unknown outcome) or that is rolled
-- back because a later group of names was busy: settle the operation (a tombstone until its
-- deadline plus the margin, so a late copy of it does nothing), and give back exactly the one
-- hold level it took on each lock, if it was granted. Repeating it changes nothing more.
-- @key op  the abandoned operation's record
-- @key locks...  per lock i (1..n), four keys: lock hash, fence counter, waiter queue, waiter
--   deadlines
-- @arg owner
-- @arg deadline  the abandoned operation's deadline (server ms)
-- @arg margin  record margin ms
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefixes...  grant channel prefix of lock i
-- @reply given
--   given: how many locks were given back
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../lock/_grant-head.lua
local op_key, owner = KEYS[1], ARGV[1]
local claim_ms, fence_ttl = tonumber(ARGV[4]), tonumber(ARGV[5])
local n = (#KEYS - 1) / 4
local function key(i, j) return KEYS[1 + (i - 1) * 4 + j] end

local previous = op_get(op_key)
redis.call('SET', op_key, 'x', 'PX', math.max(tonumber(ARGV[2]) + tonumber(ARGV[3]) - now_ms, 1))
if previous == 'x' or not previous or previous[1] ~= 1 then return {0} end

local given = 0
for i = 1, n do
  local lock_key = key(i, 1)
  local state = redis.call('HMGET', lock_key, 'o', 'f')
  if state[1] == owner and tonumber(state[2]) == previous[2 + n + i] then
    given = given + 1
    if redis.call('HINCRBY', lock_key, 'c', -1) <= 0 then
      redis.call('DEL', lock_key)
      grant_head(lock_key, key(i, 2), key(i, 3), key(i, 4), claim_ms, fence_ttl, ARGV[5 + i], nil)
    end
  end
end
return {given}
