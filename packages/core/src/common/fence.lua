-- Fencing token for a new grant: max(stored + 1, server time in µs). Strictly increasing per
-- name even after the counter key expires or Redis loses its data, as long as the server clock
-- does not go backwards. The counter key expires, so no key is permanent.
-- One SET … GET writes the server time and returns what was stored: the time is nearly always
-- the larger, and only when it is not (two grants in one µs, a clock step back) does a second
-- SET store stored + 1.
local function next_fence(fence_key, ttl_ms)
  local fence = now_us
  local stored = tonumber(redis.call('SET', fence_key, string.format('%.0f', fence), 'PX', ttl_ms, 'GET') or '0')
  if stored >= fence then
    fence = stored + 1
    redis.call('SET', fence_key, string.format('%.0f', fence), 'PX', ttl_ms)
  end
  return fence
end
