-- The remaining lease a busy answer reports for a hold. Redis answers PTTL 0 for a key that still
-- lives out the current millisecond; the wait loop reads a 0 as "unknown" and would not cap its
-- sleep by it (a waiter polling then slept up to 2 s past the expiry), so a live hold is
-- reported as at least 1 ms. -2 (no key) and -1 (no expiry) pass through.
local function live_pttl(key)
  local ms = redis.call('PTTL', key)
  if ms == 0 then return 1 end
  return ms
end
