-- The semaphore's own logic, shared by its scripts (the operation protocol's plumbing is the
-- engine's: common/protocol-*.lua). Waiters are `permits:waiterId` members, so one member says
-- what it asks for. A direct grant moves the head's permits out of `a` into the grants zset
-- (member -> claim deadline, server ms); a grant nobody claimed in time comes back here.
local function need_of(member)
  return tonumber(string.match(member, '^(%d+):'))
end

-- Reads the state after unclaimed, expired grants came back: the available permits (0 when
-- unset) and the configured total (nil when the semaphore is not set).
local function load_state(state_key, grants_key)
  local state = redis.call('HMGET', state_key, 'a', 't')
  local available, total = tonumber(state[1] or '0'), tonumber(state[2])
  local expired = redis.call('ZRANGEBYSCORE', grants_key, '-inf', '(' .. now_ms)
  if #expired == 0 then return available, total end
  for _, member in ipairs(expired) do available = available + need_of(member) end
  redis.call('ZREMRANGEBYSCORE', grants_key, '-inf', '(' .. now_ms)
  if total then redis.call('HSET', state_key, 'a', available) end
  return available, total
end

-- Strict FIFO hand-off: while the live head of the queue fits in the `available` permits,
-- reserve them for it for `claim_ms` and tell it on its channel (`permits,claim ms,server ms`: the
-- waiter may enter on the message, see semaphore/acquire.ts). A head asking for more than is
-- free blocks everyone behind it, so many small requests cannot starve one large one. Waiters
-- that missed the poll deadline they declared are dropped when they reach the head (O(log n)
-- each). `quiet_for` is the member running this script itself: it needs no message. No grant
-- while the restart quarantine `q` lasts (see common/quarantine.lua): the heads get theirs when
-- they poll after it. Returns the permits left available, whether any were granted (the
-- caller writes the available count back, once), and true when it found the queue empty (so
-- the caller need not ask again).
local function grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, quiet_for, q, available)
  if redis.call('ZCARD', queue_key) == 0 then return available, false, true end
  if quarantine_left(q) > 0 then return available, false, false end
  local changed = false
  while true do
    local head = redis.call('ZRANGE', queue_key, 0, 0)[1]
    if not head then break end
    local deadline = tonumber(redis.call('ZSCORE', deadlines_key, head))
    local live = deadline and deadline >= now_ms
    if live and need_of(head) > available then break end
    redis.call('ZREM', queue_key, head)
    redis.call('ZREM', deadlines_key, head)
    if live then
      available = available - need_of(head)
      changed = true
      redis.call('ZADD', grants_key, now_ms + claim_ms, head)
      if head ~= quiet_for then
        redis.call('PUBLISH', channel_prefix .. string.match(head, ':(.*)$'), string.format('%d,%d,%d', need_of(head), claim_ms, now_ms))
      end
    end
  end
  return available, changed, false
end
