-- Read-only snapshot of the keys of one name, in one request. Every kind's inspection (one per
-- primitive, in kinds/) says which keys to read and how, so this one script serves them all.
-- All keys of one name share its hash tag (one cluster slot). It writes nothing.
-- KEYS[i]    a key of the name
-- ARGV[1]    cap: the most members (or fields) returned per key
-- ARGV[1+i]  how to read KEYS[i]; j names an earlier key whose members are reused:
--   'h'        hash   -> {pttl, field count, field/value list ({} when over 4 * cap fields)}
--   's'        string -> {pttl, value or false}
--   'z'        zset, by rank -> {pttl, card, live, member/score list of the first cap}
--   'zl'       zset, live members by score -> {pttl, card, live, member/score list of the first cap}
--   'zs:j'     zset, the score of each member read at KEYS[j] -> {pttl, card, live, score or false ...}
--   'hf:j:p,q' hash, fields p..member, q..member for each member read at KEYS[j]
--              -> {pttl, field count, value or false ...} (member-major)
--   live: members whose score is at least the server time in ms (unexpired leases and deadlines)
-- Returns {server ms, read of KEYS[1], ..., read of KEYS[n]}
-- @include ../common/now.lua
local cap = tonumber(ARGV[1])
local members = {}
local out = {now_ms}

local function members_of(list)
  local m = {}
  for k = 1, #list, 2 do m[#m + 1] = list[k] end
  return m
end

for i, key in ipairs(KEYS) do
  local op = ARGV[i + 1]
  local pttl = redis.call('PTTL', key)
  local kind, j, rest = string.match(op, '^(%a+):?(%d*):?(.*)$')
  local source = members[tonumber(j) or 0] or {}
  if kind == 'h' then
    local size = redis.call('HLEN', key)
    local fields = {}
    if size <= 4 * cap then fields = redis.call('HGETALL', key) end
    out[#out + 1] = {pttl, size, fields}
  elseif kind == 's' then
    out[#out + 1] = {pttl, redis.call('GET', key)}
  elseif kind == 'z' or kind == 'zl' then
    local list
    if kind == 'z' then
      list = redis.call('ZRANGE', key, 0, cap - 1, 'WITHSCORES')
    else
      list = redis.call('ZRANGEBYSCORE', key, now_ms, '+inf', 'WITHSCORES', 'LIMIT', 0, cap)
    end
    members[i] = members_of(list)
    out[#out + 1] = {pttl, redis.call('ZCARD', key), redis.call('ZCOUNT', key, now_ms, '+inf'), list}
  elseif kind == 'zs' then
    local scores = {}
    for k, member in ipairs(source) do scores[k] = redis.call('ZSCORE', key, member) end
    out[#out + 1] = {pttl, redis.call('ZCARD', key), redis.call('ZCOUNT', key, now_ms, '+inf'), scores}
  elseif kind == 'hf' then
    local fields = {}
    for _, member in ipairs(source) do
      for prefix in string.gmatch(rest, '[^,]+') do fields[#fields + 1] = prefix .. member end
    end
    local values = {}
    if #fields > 0 then values = redis.call('HMGET', key, unpack(fields)) end
    out[#out + 1] = {pttl, redis.call('HLEN', key), values}
  else
    return redis.error_reply('describe: unknown read ' .. tostring(op))
  end
end
return out
