-- The operation protocol, before the body of every @protocol script (docs/protocol.md). The
-- engine appends its slots after the script's own, so a body's KEYS[1..n] and ARGV[1..m] are its
-- own: KEYS[n+1] this operation's record, KEYS[n+2] the restart-quarantine sentinel;
-- ARGV[m+1] deadline (server ms: the latest time at which a copy of this operation may apply),
-- ARGV[m+2] record margin ms (the record lives until deadline + margin),
-- ARGV[m+3] quarantine ms (0: off), ARGV[m+4] sentinel ttl ms, ARGV[m+5] the highest grant epoch
-- the client has seen (0: none; see quarantine.lua).
-- A copy of an operation that already ran returns the recorded answer and changes nothing; a
-- settled (tombstoned) operation answers -101; a copy past its deadline answers -100 (LATE) and
-- changes nothing, records nothing. Every reply ends with the grant epoch this run left and the
-- smaller one it found (-1 each when it did not read the sentinel), then the server time.
-- @include now.lua
-- @include quarantine.lua
local __nk, __na = #KEYS, #ARGV
local op_key = KEYS[__nk - 1]
local quarantine = {
  key = KEYS[__nk], ms = tonumber(ARGV[__na - 2]), ttl = tonumber(ARGV[__na - 1]), seen = ARGV[__na],
}
local op_deadline, op_margin = tonumber(ARGV[__na - 4]), tonumber(ARGV[__na - 3])
local __record = redis.call('GET', op_key)
if __record == 'x' then return {-101, -1, -1, now_ms} end
if __record then
  local recorded = {}
  for part in string.gmatch(__record, '[^,]+') do recorded[#recorded + 1] = tonumber(part) end
  recorded[#recorded + 1] = -1
  recorded[#recorded + 1] = -1
  recorded[#recorded + 1] = now_ms
  return recorded
end
if now_ms > op_deadline then return {-100, -1, -1, now_ms} end
