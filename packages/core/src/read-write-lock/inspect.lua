-- Read-only view of one side of a read-write lock.
-- @key lock  writer hash
-- @key deadlines  writer poll deadlines
-- @key readers  readers
-- @key holds  reader holds
-- @arg owner  owner asking (may be empty)
-- @arg side  'r' for the read side, 'w' for the write side
-- @reply locked mine pttl fence waiters count
--   mine: the count held by owner; waiters: live queued writers; count: the total count
--   write side: held by a writer (or reserved for one), its pttl and fence, its count
--   read side: held by live readers, the longest reader's pttl, owner's read fence, the readers
local waiters = redis.call('ZCOUNT', KEYS[2], now_ms, '+inf')
if ARGV[2] == 'w' then
  local state = redis.call('HMGET', KEYS[1], 'o', 'c', 'f', 'g')
  if not state[1] then return {0, 0, 0, 0, waiters, 0} end
  local mine = 0
  if state[1] == ARGV[1] and state[4] ~= '1' then mine = tonumber(state[2]) end
  return {1, mine, redis.call('PTTL', KEYS[1]), tonumber(state[3]), waiters, tonumber(state[2])}
end
local live = redis.call('ZCOUNT', KEYS[3], '(' .. now_ms, '+inf')
if live == 0 then return {0, 0, 0, 0, waiters, 0} end
local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
local mine, fence = 0, 0
local expiry = tonumber(redis.call('ZSCORE', KEYS[3], ARGV[1]))
if expiry and expiry > now_ms then
  mine = tonumber(redis.call('HGET', KEYS[4], 'c' .. ARGV[1]) or '0')
  fence = tonumber(redis.call('HGET', KEYS[4], 'f' .. ARGV[1]) or '0')
end
return {1, mine, tonumber(last[2]) - now_ms, fence, waiters, live}
