-- Learn how long holds last, so waiters can poll just in time (moving average, weight 1/4).
local function record_hold(stats_key, granted_at, stats_ttl)
  local held = now_ms - tonumber(granted_at)
  local mean = tonumber(redis.call('HGET', stats_key, 'h') or held)
  redis.call('HSET', stats_key, 'h', math.floor(mean + (held - mean) / 4))
  redis.call('PEXPIRE', stats_key, stats_ttl)
end
