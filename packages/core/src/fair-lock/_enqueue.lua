-- Waiter bookkeeping shared by the fair lock and the read-write lock's writers.
-- `refresh_deadline`: a queued waiter that is polling now is alive: move its deadline before any
-- grant looks at it, so it is never dropped while it keeps its word. Returns whether it was queued.
local function refresh_deadline(queue_key, deadlines_key, owner, return_within)
  if redis.call('ZSCORE', queue_key, owner) then
    redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
    return true
  end
  return false
end

-- `mark_queued`: a waiter joins behind the hold in `state` (the hash's fields, w 7th): mark the
-- hold, so that its release looks at the queue (one HSET, once per hold). A hold without the mark
-- never had anyone queued behind it (grant_head marks a grant with waiters left), and its release
-- skips the queue read.
local function mark_queued(lock_key, state)
  if not state[7] then redis.call('HSET', lock_key, 'w', 1) end
end

-- `enqueue`: join the queue at the tail (keeping the place already held), declare the server time
-- by which this waiter polls again, and keep both keys alive past every declared deadline.
-- `refreshed`: refresh_deadline already found it queued and set its deadline (nothing to add).
-- Returns the 1-based position.
local function enqueue(queue_key, deadlines_key, owner, return_within, busy_ttl, refreshed)
  if not refreshed then
    redis.call('ZADD', queue_key, 'NX', now_us, owner)
    redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
  end
  local horizon = math.max(busy_ttl, 0) + return_within + 60000
  -- The two keys are always given their ttl together (here, and by the Lock's and semaphores'
  -- queues alike), so the queue's stands for both: one PTTL, not two.
  if redis.call('PTTL', queue_key) < horizon then
    redis.call('PEXPIRE', queue_key, horizon)
    redis.call('PEXPIRE', deadlines_key, horizon)
  end
  return redis.call('ZRANK', queue_key, owner) + 1
end
