-- Learn how long holds last, so waiters can poll just in time (moving average, weight 1/4): only
-- from a release someone waited for (a queued waiter was handed the lock, or readers were told),
-- since only waiters read it, and a name nobody waits on should cost no bookkeeping. The
-- statistics' ttl is refreshed (and its time kept in e) once half of it has passed, not on every
-- release: they outlive the last release by between half the ttl and the whole of it.
local function record_hold(stats_key, granted_at, stats_ttl)
  local held = now_ms - tonumber(granted_at)
  local stats = redis.call('HMGET', stats_key, 'h', 'e')
  local mean = tonumber(stats[1] or held)
  if now_ms - tonumber(stats[2] or '0') >= stats_ttl / 2 then
    redis.call('HSET', stats_key, 'h', math.floor(mean + (held - mean) / 4), 'e', now_ms)
    redis.call('PEXPIRE', stats_key, stats_ttl)
  else
    redis.call('HSET', stats_key, 'h', math.floor(mean + (held - mean) / 4))
  end
end
