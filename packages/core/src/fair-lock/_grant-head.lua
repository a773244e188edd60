-- Strict FIFO hand-off: when the lock falls free, give it to the first live waiter in arrival
-- order. A waiter whose declared poll deadline has passed (its invocation died) is dropped on the
-- way: O(log n) each, and each waiter is dropped at most once, so no grant rewrites the queue.
-- The grant is reserved until the head's own deadline: it promised to poll by then, so a live
-- waiter always finds its grant, and a dead one costs no more than the time it declared.
-- It is told on its channel (push), or finds out on its next poll. `quiet_for` is a waiter that
-- is running this script itself and needs no notice. Returns the new holder and its fence.
-- A hold marked `w` has had someone queued behind it, so its release looks at the queue; one
-- without the mark never had, and its release skips the read (see _enqueue.lua).
local function grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, quiet_for)
  while true do
    -- the head and the one behind it, in one read: a grant with waiters left marks the new hold (w)
    local first = redis.call('ZRANGE', queue_key, 0, 1)
    local head = first[1]
    if not head then return nil end
    local deadline = tonumber(redis.call('ZSCORE', deadlines_key, head))
    redis.call('ZREM', queue_key, head)
    redis.call('ZREM', deadlines_key, head)
    if deadline and deadline >= now_ms then
      local fence = next_fence(fence_key, fence_ttl)
      local reserve = math.max(deadline - now_ms, 1)
      local hold = {'o', head, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms, 'g', 1}
      if first[2] then hold[11], hold[12] = 'w', 1 end
      redis.call('HSET', lock_key, unpack(hold))
      redis.call('PEXPIRE', lock_key, reserve)
      if head ~= quiet_for then
        redis.call('PUBLISH', channel_prefix .. head, string.format('%.0f,%d,%d', fence, now_ms, reserve))
      end
      return head, fence, first[2] ~= nil
    end
  end
end
