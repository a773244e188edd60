-- Release one hold of the reentrant lock; when the count reaches zero, hand the lock directly
-- to the first live waiter.
-- @protocol
-- @key lock  lock hash (see acquire.lua)
-- @key fence  fence counter
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key stats  hold statistics (h mean use, d its deviation, y mean cycle, e when its ttl was
--   last set, server ms)
-- @arg owner
-- @arg fence  fence of the hold being released (the state the caller expects)
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @arg statsTtlMs  statistics ttl ms
-- @reply status remaining
--   status 1 released (remaining: the count left), 0 not held by this owner and fence
-- @include ../common/fence.lua
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, fence = ARGV[1], ARGV[2]
local claim_ms, fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])

local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'u', 'c', 'w')
if state[1] ~= owner or state[2] ~= fence then return {0, 0} end

-- The last hold (the usual case) needs no decrement: the hash is deleted below.
if tonumber(state[5] or '1') > 1 then return {1, redis.call('HINCRBY', lock_key, 'c', -1)} end

redis.call('DEL', lock_key)
do
  -- Learn how long holds are used and how regular that is, and how long a whole hand-off cycle
  -- takes (grant to release, including the next holder's lateness in claiming), so waiters can
  -- poll just in time: moving averages (weight 1/4) kept to 0.1 ms, so that rounding does not
  -- drag them below the truth. A grant released before its claim landed counts too: it was used.
  -- Every release records them, also where nobody waits: the first waiter (or refused try, whose
  -- Retry-After a web middleware derives from them) must find the name's typical hold already.
  local used = now_ms - tonumber(state[4] or state[3])
  local cycle = now_ms - tonumber(state[3])
  local stats = redis.call('HMGET', stats_key, 'h', 'd', 'y', 'e')
  local mean = tonumber(stats[1] or used)
  local dev = tonumber(stats[2] or math.abs(used - mean))
  local mean_cycle = tonumber(stats[3] or cycle)
  local fields = {'h', string.format('%.1f', mean + (used - mean) / 4),
    'd', string.format('%.1f', dev + (math.abs(used - mean) - dev) / 4),
    'y', string.format('%.1f', mean_cycle + (cycle - mean_cycle) / 4)}
  -- The statistics' ttl is refreshed (and its time kept in e) once half of it has passed, not on
  -- every release: they outlive the last release by between half the ttl and the whole of it.
  local refreshed = tonumber(stats[4] or '0')
  local refresh = now_ms - refreshed >= stats_ttl / 2
  if refresh then
    fields[#fields + 1] = 'e'
    fields[#fields + 1] = now_ms
  end
  redis.call('HSET', stats_key, unpack(fields))
  if refresh then redis.call('PEXPIRE', stats_key, stats_ttl) end
end
-- Only a hold someone queued behind (w) has a queue to hand on to: acquire.lua marks it when a
-- waiter joins, grant_head when it grants with waiters left. A hold without the mark skips the
-- queue read. (A hold made by an older client has no mark: its waiters find the lock free on
-- their next poll, within their declared return window.)
if state[6] == '1' then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, nil)
end
return {1, 0}
