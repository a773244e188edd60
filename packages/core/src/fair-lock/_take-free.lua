-- An acquire that finds the lock free, in the fair lock's layout (the fair lock, the read-write
-- lock's writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, fence_key, queue_key, deadlines_key, owner, lease, fence_ttl,
-- channel_prefix, quarantine, holder, claimed, granted_at, state (the hash's o g t v f c w),
-- queue_absent (true: the includer already knows the queue does not exist, and no grant_head
-- needs to read it).
-- A new grant is refused while quarantined (-3); otherwise the first live waiter gets it (holder
-- becomes that waiter, perhaps the caller itself), or, with no live waiter, the caller takes it.
local left = quarantine_left(quarantine)
if left > 0 then return {-3, 0, 0, left, 0, 0, 0, 0} end
local head_fence
local marked
if not queue_absent then
  holder, head_fence, marked = grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, owner)
end
if not holder then
  -- The queue is empty (grant_head found no live waiter), so the caller is not in it; the hash is
  -- written whole here (a free lock has no hash), so the answer needs no read of it.
  local fence = next_fence(fence_key, fence_ttl)
  redis.call('HSET', lock_key, 'o', owner, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms)
  redis.call('PEXPIRE', lock_key, lease)
  return {1, fence, 1, lease, 0, 0, 0, tonumber(state[4] or '0')}
end
-- grant_head reserved it for the head (granted now, count 1, its fence): if that is the caller,
-- it claims it next
claimed, granted_at = '1', now_ms
state[5], state[6], state[7] = string.format('%.0f', head_fence), '1', marked and '1' or nil
