-- The first half of every Lock-layout abandon (the Lock, the fair lock, the read-write lock's
-- writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, queue_key, deadlines_key, op_key, owner, op_ttl (and op-record.lua).
-- Marks the operation abandoned (a late copy of it then does nothing) and leaves the queue. Returns
-- {0} when the owner has nothing this operation took, {1} when it gave back one nested level;
-- falls through when the hold or the direct grant must go (the includer deletes it and hands on).
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
