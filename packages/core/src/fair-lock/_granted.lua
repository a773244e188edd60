-- The reply to a grant or re-entry in the fair lock's layout (the fair lock, the read-write lock's
-- writer), inlined where it is included. In scope: lock_key, queue_key, deadlines_key, owner.
-- Takes the owner out of the queue and answers {status, fence, count, pttl, 0, 0, 0, version}
-- (the protocol epilogue records it under the operation).
local function granted(status)
  local state = redis.call('HMGET', lock_key, 'f', 'c', 'v')
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  return {status, tonumber(state[1]), tonumber(state[2]), redis.call('PTTL', lock_key), 0, 0, 0, tonumber(state[3] or '0')}
end
