-- Settle an operation whose caller gave up retrying: its recorded answer if a copy applied,
-- else a tombstone until its deadline plus the margin, so that no copy can apply any more.
-- Not itself @protocol: it answers variable-length tuples (the recorded answer).
-- @key op  the operation's record
-- @arg deadline  the latest deadline any copy of the operation carried (server ms)
-- @arg margin  record margin ms
-- @reply status
-- Returns the recorded answer, or {-101} settled as never applied, or {-102} too late to tell
-- (the record, if any, has expired: should not happen with a margin that covers a request)
local raw = redis.call('GET', KEYS[1])
if raw == 'x' then return {-101} end
if raw then
  local recorded = {}
  for part in string.gmatch(raw, '[^,]+') do recorded[#recorded + 1] = tonumber(part) end
  return recorded
end
local ttl = tonumber(ARGV[1]) + tonumber(ARGV[2]) - now_ms
if ttl <= 0 then return {-102} end
redis.call('SET', KEYS[1], 'x', 'PX', ttl)
return {-101}
