-- The permit-expirable semaphore's own logic, shared by its scripts (the operation protocol's
-- plumbing is the engine's: common/protocol-*.lua). Each permit is a member of the permits zset
-- (permit id -> expiry, server ms), its lease version in the versions hash (absent: 0); the
-- available count is the total minus the live permits, so an expired permit returns to the pool
-- by the server's clock the moment it is dropped here.
local function reclaim(permits_key, versions_key)
  local expired = redis.call('ZRANGEBYSCORE', permits_key, '-inf', '(' .. now_ms)
  if #expired == 0 then return 0 end
  redis.call('ZREM', permits_key, unpack(expired))
  redis.call('HDEL', versions_key, unpack(expired))
  return #expired
end

-- The free permits, and whether no permit is held at all (the zset is empty or absent). Expired
-- permits are dropped only when none looks free: while one does, counting the expired as held
-- changes no decision (a caller takes one permit; a hand-out that stops early leaves the next
-- heads to the reclaim their own poll makes), and it saves the purge on every call.
local function available(state_key, permits_key, versions_key)
  local held = redis.call('ZCARD', permits_key)
  local free = tonumber(redis.call('HGET', state_key, 't') or '0') - held
  if free <= 0 and held > 0 then
    local dropped = reclaim(permits_key, versions_key)
    free, held = free + dropped, held - dropped
  end
  return free, held == 0
end

-- The expiry of `id`'s live permit (a held permit or an unclaimed direct grant), or nil: an
-- expired one may still be in the zset until a purge, and is nobody's.
local function live_expiry(permits_key, id)
  local expiry = tonumber(redis.call('ZSCORE', permits_key, id))
  if expiry and expiry >= now_ms then return expiry end
  return nil
end

-- A permit's expiry moved to `expiry`: the zset must live at least as long as its last permit.
-- (A version entry exists only once its permit was renewed: extend.lua keeps the versions hash
-- alive as long as the permit it renewed.)
-- `fresh`: the caller created the zset with this very permit, so it has no ttl yet to compare.
-- `kept`: an expiry the zset is known to outlive already (a live permit's, read by the caller).
local function keep_permits_key(permits_key, expiry, fresh, kept)
  if kept and kept >= expiry then return end
  if fresh or redis.call('PTTL', permits_key) < expiry - now_ms then redis.call('PEXPIRE', permits_key, expiry - now_ms + 1000) end
end

-- FIFO hand-off: while permits are free (`free` of them, the queue not empty), the live head of
-- the queue gets one as a permit that expires after `claim_ms` unless claimed (so a dead waiter
-- costs at most that), and is told on its channel: `claim ms,fence,server ms`. The fence is drawn
-- for the message, so the waiter may enter on it and claim (its first renewal) in the background,
-- as a Lock's waiter does; one that polls instead claims through acquire, with a fence of its
-- own. Waiters that missed their declared poll deadline are dropped on the way. `quiet_for` is
-- the waiter running this script itself: it needs no message. No grant while the restart
-- quarantine `q` lasts (see common/quarantine.lua): the heads get theirs when they poll after
-- it. `fence` is {key, ttl}. Returns the permits left free, and true when `quiet_for` got one.
-- `fresh` and `kept`: what the caller knows of the zset's ttl, as for keep_permits_key.
local function hand_out(permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, quiet_for, q, fence, free, fresh, kept)
  if quarantine_left(q) > 0 then return free, false end
  local to_self = false
  while free > 0 do
    local head = redis.call('ZRANGE', queue_key, 0, 0)[1]
    if not head then return free, to_self end
    local deadline = tonumber(redis.call('ZSCORE', deadlines_key, head))
    redis.call('ZREM', queue_key, head)
    redis.call('ZREM', deadlines_key, head)
    if deadline and deadline >= now_ms then
      redis.call('ZADD', permits_key, now_ms + claim_ms, head)
      if fresh then kept = nil end
      keep_permits_key(permits_key, now_ms + claim_ms, fresh, kept)
      -- every grant here has the same expiry: the zset outlives the next ones already
      fresh, kept = false, now_ms + claim_ms
      free = free - 1
      if head == quiet_for then
        to_self = true
      else
        local granted = next_fence(fence.key, fence.ttl)
        redis.call('PUBLISH', channel_prefix .. head, string.format('%d,%.0f,%d', claim_ms, granted, now_ms))
      end
    end
  end
  return free, to_self
end

-- `hand_out` after counting what is free. Returns the permits left free (the total minus the
-- live permits), whether the permits zset was empty before (nothing held, nothing granted), and
-- true when it found the queue empty (so the caller need not ask again), and true when
-- `quiet_for` was the head and got a direct grant.
local function grant_heads(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, quiet_for, q, fence)
  local free, none_held = available(state_key, permits_key, versions_key)
  if free <= 0 then return free, none_held, false, false end
  if redis.call('ZCARD', queue_key) == 0 then return free, none_held, true, false end
  local left, to_self = hand_out(permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, quiet_for, q, fence, free, none_held)
  return left, false, false, to_self
end

-- A permit came back (released or abandoned): hand it on, if anyone waits. On a name without a
-- queue one ZCARD says so, and nothing needs counting. `kept`: as for keep_permits_key.
local function pass_on(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, q, fence, kept)
  if redis.call('ZCARD', queue_key) == 0 then return end
  local free, none_held = available(state_key, permits_key, versions_key)
  if free > 0 then hand_out(permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, nil, q, fence, free, none_held, kept) end
end
