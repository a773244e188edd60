-- Waiter bookkeeping shared by the fair lock and the read-write lock's writers.
-- `refresh_deadline`: a queued waiter that is polling now is alive: move its deadline before any
-- grant looks at it, so it is never dropped while it keeps its word.
local function refresh_deadline(queue_key, deadlines_key, owner, return_within)
  if redis.call('ZSCORE', queue_key, owner) then
    redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
  end
end

-- `enqueue`: join the queue at the tail (keeping the place already held), declare the server time
-- by which this waiter polls again, and keep both keys alive past every declared deadline.
-- Returns the 1-based position.
local function enqueue(queue_key, deadlines_key, owner, return_within, busy_ttl)
  redis.call('ZADD', queue_key, 'NX', now_us, owner)
  redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
  local horizon = math.max(busy_ttl, 0) + return_within + 60000
  if redis.call('PTTL', queue_key) < horizon then redis.call('PEXPIRE', queue_key, horizon) end
  if redis.call('PTTL', deadlines_key) < horizon then redis.call('PEXPIRE', deadlines_key, horizon) end
  return redis.call('ZRANK', queue_key, owner) + 1
end
