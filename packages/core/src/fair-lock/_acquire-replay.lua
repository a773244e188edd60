-- The start of an acquire in the fair lock's layout (the fair lock, the read-write lock's writer),
-- inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, queue_key, deadlines_key, op_key, owner, op_ttl (and op-record.lua).
-- Answers a repeated operation as the first time (-1 when it was abandoned), then defines
-- granted(status): the reply to a grant or re-entry, which takes the owner out of the queue and is
-- recorded under the operation.
local previous = op_get(op_key)
if previous == 'x' then return {-1, 0, 0, 0, 0, 0, 0, now_ms} end
if previous then return previous end

local function granted(status)
  local state = redis.call('HMGET', lock_key, 'f', 'c')
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  return op_put(op_key, {status, tonumber(state[1]), tonumber(state[2]), redis.call('PTTL', lock_key), 0, 0, 0, now_ms}, op_ttl)
end
