-- Fencing token for a new grant: max(stored + 1, server time in µs). Strictly increasing per
-- name even after the counter key expires or Redis loses its data, as long as the server clock
-- does not go backwards. The counter key expires, so no key is permanent.
local function next_fence(fence_key, ttl_ms)
  local stored = tonumber(redis.call('GET', fence_key) or '0')
  local fence = math.max(stored + 1, now_us)
  redis.call('SET', fence_key, string.format('%.0f', fence), 'PX', ttl_ms)
  return fence
end
