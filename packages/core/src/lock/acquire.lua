-- Acquire or re-enter the reentrant lock; on failure, optionally join the waiter queue.
-- @protocol
-- @key lock  hash: o owner, c hold count, f fence, t granted at (server ms), g = 1 while a direct
--   grant is unclaimed, u its use began (server ms; absent: at t), v lease version (absent: 0)
-- @key fence  fence counter
-- @key queue  waiter queue (zset owner -> arrival µs)
-- @key deadlines  waiter poll deadlines (zset owner -> server ms)
-- @key stats  hold statistics (hash: h mean use ms, d its mean absolute deviation, y mean cycle
--   ms from grant to release, hand-off lateness included)
-- @arg owner
-- @arg leaseMs
-- @arg queue  1 = join the queue when busy, 0 = try only
-- @arg returnWithinMs  ms within which a queued waiter promises to poll again
-- @arg claimMs  claim window ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status fence count pttl position meanUseMs useAgeMs version useDevMs meanCycleMs
--   status 1 granted, 2 re-entered, 0 busy (position > 0 when queued),
--   -3 quarantined (pttl = ms left of the restart quarantine; nothing changed, not queued)
-- @include ../common/fence.lua
-- @include ../common/live-pttl.lua
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local queue, return_within, claim_ms = ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local fence_ttl, channel_prefix = tonumber(ARGV[6]), ARGV[7]

-- A new grant or a claim leaves the owner out of the queue already (the queue was empty, or
-- grant_head took it off); only a re-entry may still find it queued.
local function granted(status, pttl)
  local state = redis.call('HMGET', lock_key, 'f', 'c', 'v')
  return {status, tonumber(state[1]), tonumber(state[2]), pttl, 0, 0, 0, tonumber(state[3] or '0'), 0, 0}
end

local holder = redis.call('HGET', lock_key, 'o')
if not holder then
  -- a free lock means a new grant (to the queue head or to us): not while quarantined
  local left = quarantine_left(quarantine)
  if left > 0 then return {-3, 0, 0, left, 0, 0, 0, 0, 0, 0} end
  local next_holder = grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, owner)
  if not next_holder then
    local fence = next_fence(fence_key, fence_ttl)
    redis.call('HSET', lock_key, 'o', owner, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    return granted(1, lease)
  end
  holder = next_holder
end

if holder == owner then
  if redis.call('HGET', lock_key, 'g') == '1' then
    -- claiming a direct grant: it becomes a normal hold with the full lease. Its use starts
    -- now (u), when the holder learns it holds; t keeps the grant's time. A pushed holder enters
    -- on the grant message and claims by extend: its use starts at the grant.
    redis.call('HDEL', lock_key, 'g')
    redis.call('HSET', lock_key, 'u', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    return granted(1, lease)
  end
  redis.call('HINCRBY', lock_key, 'c', 1)
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  -- A nested acquire never shortens the lease of an outer hold, and leaves the lease version
  -- alone: it only lengthens, so no renewal ordered by the version can be undone by it.
  local pttl = redis.call('PTTL', lock_key)
  if pttl < lease then
    redis.call('PEXPIRE', lock_key, lease)
    pttl = lease
  end
  return granted(2, pttl)
end

local position = 0
if queue then
  redis.call('ZADD', queue_key, 'NX', now_us, owner)
  redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
  local horizon = redis.call('PTTL', lock_key) + return_within + 60000
  redis.call('PEXPIRE', queue_key, horizon)
  redis.call('PEXPIRE', deadlines_key, horizon)
  position = redis.call('ZRANK', queue_key, owner) + 1
end
local stats = redis.call('HMGET', stats_key, 'h', 'd', 'y')
-- The current hold's age counts from its use (an unclaimed grant has not started it yet).
local held = redis.call('HMGET', lock_key, 't', 'u', 'g')
local age = 0
if held[3] ~= '1' then age = now_ms - tonumber(held[2] or held[1] or now_ms) end
local function ms(v) return math.floor(tonumber(v or '0')) end
return {0, 0, 0, live_pttl(lock_key), position, ms(stats[1]), age, 0, ms(stats[2]), ms(stats[3])}
