-- Restart quarantine. A sentinel key, refreshed by every grant and living far longer than any
-- lease, says "this data set has been in use". A script about to make a new grant that finds it
-- missing cannot tell a first use from lost data (a restart without persistence, a flush), so it
-- assumes the worst: it stores "no grant before now + quarantine ms" in the sentinel and refuses.
-- By then every holder from before the loss has passed its local deadline (no lease is longer than
-- the quarantine; the client enforces it), so no new holder overlaps one that did not notice.
--
-- Rollback detection. A partial loss (a restart from an RDB snapshot, AOF everysec, a restore)
-- keeps the sentinel, so the sentinel also counts grants: its value is "<until ms>.<epoch>", and
-- every grant bumps the epoch (a SET where a PEXPIRE was: no extra command). A client remembers
-- the highest epoch its replies showed and sends it (`q.seen`); the data set once held that epoch,
-- and epochs only grow, so a smaller one now means the newest writes are gone: quarantine as for
-- a missing sentinel. The epoch is the fraction of the number an older script reads, so old
-- clients still see only "<until ms>" (see docs/protocol.md, rolling upgrade).
-- `q` = {key = sentinel, ms = quarantine ms (0: off, the key is never touched), ttl = sentinel ms,
-- seen = highest epoch the client has seen (absent: 0)}.
-- Returns the ms left of the quarantine; 0 lets the grant proceed (and has refreshed the sentinel).
-- Sets `quarantine_epoch` (the epoch this script left, -1 if it did not read the sentinel) and
-- `quarantine_rolled_back` (the smaller epoch it found, -1 if none), which the protocol epilogue
-- appends to the reply.
local quarantine_epoch, quarantine_rolled_back = -1, -1

local function sentinel_read(key)
  local raw = redis.call('GET', key)
  if not raw then return nil, 0 end
  local until_part, epoch_part = string.match(raw, '^(%-?%d+)%.?(%d*)$')
  return tonumber(until_part or '0'), tonumber(epoch_part ~= '' and epoch_part or '0') or 0
end

local function sentinel_write(q, until_ms, epoch)
  redis.call('SET', q.key, string.format('%.0f.%.0f', until_ms, epoch), 'PX', q.ttl)
  quarantine_epoch = epoch
end

local function quarantine_left(q)
  if q.ms <= 0 then return 0 end
  local seen = tonumber(q.seen or '0') or 0
  local until_ms, epoch = sentinel_read(q.key)
  if until_ms == nil or epoch < seen then
    if until_ms ~= nil then quarantine_rolled_back = epoch end
    -- A new epoch past any a client can have seen (grants per µs never reach 1), so the
    -- memories of other clients do not start the quarantine again once it is over.
    local ends = math.max(until_ms or 0, now_ms + q.ms)
    sentinel_write(q, ends, math.max(seen + 1, now_us))
    return ends - now_ms
  end
  if until_ms > now_ms then
    quarantine_epoch = epoch
    return until_ms - now_ms
  end
  sentinel_write(q, until_ms, epoch + 1)
  return 0
end

-- The ms left of a quarantine already under way: read only, for answers that explain a refusal.
local function quarantine_running(q)
  if q.ms <= 0 then return 0 end
  local until_ms = sentinel_read(q.key)
  return math.max((until_ms or 0) - now_ms, 0)
end
