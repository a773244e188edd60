-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue at once, mark the operation abandoned so a late copy of it does nothing, and release
-- what it took, if anything (the hold it was granted, or a direct grant made to the waiter).
-- KEYS[1] lock hash   KEYS[2] fence counter   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] the abandoned operation's record
-- ARGV[1] owner   ARGV[2] operation record ttl ms   ARGV[3] fence counter ttl ms
-- ARGV[4] grant channel prefix
-- Returns {status}: 1 released a hold or grant, 0 nothing to release
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, op_ttl, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]

local previous = op_get(op_key)
if previous == 'x' then return {0} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
redis.call('ZREM', queue_key, owner)
redis.call('ZREM', deadlines_key, owner)

local state = redis.call('HMGET', lock_key, 'o', 'f', 'g')
if state[1] ~= owner then return {0} end
local took = previous and string.format('%.0f', previous[2]) == state[2]
if not took and state[3] ~= '1' then return {0} end

if took and state[3] ~= '1' then
  -- give back the one level this operation took; other holds of the same owner stay
  if redis.call('HINCRBY', lock_key, 'c', -1) > 0 then return {1} end
end
redis.call('DEL', lock_key)
grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
return {1}
