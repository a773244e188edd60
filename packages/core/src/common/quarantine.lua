-- Restart quarantine. A sentinel key, refreshed by every grant and living far longer than any
-- lease, says "this data set has been in use". A script about to make a new grant that finds it
-- missing cannot tell a first use from lost data (a restart without persistence, a flush), so it
-- assumes the worst: it stores "no grant before now + quarantine ms" in the sentinel and refuses.
-- By then every holder from before the loss has passed its local deadline (no lease is longer than
-- the quarantine; the client enforces it), so no new holder overlaps one that did not notice.
-- `q` = {key = sentinel, ms = quarantine ms (0: off, the key is never touched), ttl = sentinel ms}.
-- Returns the ms left of the quarantine; 0 lets the grant proceed (and has refreshed the sentinel).
local function quarantine_left(q)
  if q.ms <= 0 then return 0 end
  local until_ms = tonumber(redis.call('GET', q.key) or '-1')
  if until_ms < 0 then
    redis.call('SET', q.key, string.format('%.0f', now_ms + q.ms), 'PX', q.ttl)
    return q.ms
  end
  if until_ms > now_ms then return until_ms - now_ms end
  redis.call('PEXPIRE', q.key, q.ttl)
  return 0
end

-- The ms left of a quarantine already under way: read only, for answers that explain a refusal.
local function quarantine_running(q)
  if q.ms <= 0 then return 0 end
  return math.max(tonumber(redis.call('GET', q.key) or '0') - now_ms, 0)
end
