-- Direct hand-off: when the lock falls free, give it to the first live waiter instead of letting
-- everyone race for it. Waiters that missed the poll deadline they declared are dropped on the
-- way (O(log n) each). The grant lasts `claim_ms` until the waiter claims it, so a dead waiter
-- costs at most that; the waiter is told on its channel (push), or finds out on its next poll.
-- Returns the new holder and its fence (nil when the queue held no live waiter).
-- `quiet_for` is a waiter that is running this script itself and needs no notice.
-- A hold marked `w` has had someone queued behind it, so its release looks at the queue; one
-- without the mark never had, and its release skips the read (see the acquire's busy path).
local function grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, quiet_for)
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
      local heard = 0
      if head ~= quiet_for then
        heard = redis.call('PUBLISH', channel_prefix .. head, string.format('%.0f,%d,%d', fence, now_ms, claim_ms))
      end
      local hold = {'o', head, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms, 'g', 1}
      if first[2] then hold[#hold + 1], hold[#hold + 2] = 'w', 1 end
      -- p: a stream heard the grant, so its holder most likely entered on the message at once
      -- and claims only if it holds long (see acquire.lua: the hold's age counts from the grant)
      if heard > 0 then hold[#hold + 1], hold[#hold + 2] = 'p', 1 end
      redis.call('HSET', lock_key, unpack(hold))
      redis.call('PEXPIRE', lock_key, claim_ms)
      return head, fence, first[2] ~= nil
    end
  end
end
