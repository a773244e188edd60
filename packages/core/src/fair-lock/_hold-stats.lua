-- Learn how long holds last, so waiters can poll just in time (moving average, weight 1/4), from
-- every release: the first waiter (or a refused try, whose Retry-After a web middleware derives
-- from them) must find the name's typical hold already. The
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
