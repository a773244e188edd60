-- Acquire or re-enter the reentrant lock; on failure, optionally join the waiter queue.
-- @protocol
-- @key lock  hash: o owner, c hold count, f fence, t granted at (server ms), g = 1 while a direct
--   grant is unclaimed, u its use began (server ms; absent: at t), v lease version (absent: 0),
--   w = 1 once someone queued behind this hold (its release hands on only then), p = 1 when a
--   stream heard its direct grant (see _grant-head.lua)
-- @key fence  fence counter
-- @key queue  waiter queue (zset owner -> arrival µs)
-- @key deadlines  waiter poll deadlines (zset owner -> server ms)
-- @key stats  hold statistics (hash: h mean use ms, d its mean absolute deviation, y mean cycle
--   ms from grant to release, hand-off lateness included)
-- @arg owner
-- @arg leaseMs
-- @arg queue  1 = join the queue when busy, 0 = try only, 2 = join only: queue behind another's
--   hold, never take a free lock nor claim a grant (a multi-lock waiter joining a later name)
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
local queue, return_within, claim_ms = ARGV[3] ~= '0', tonumber(ARGV[4]), tonumber(ARGV[5])
local fence_ttl, channel_prefix = tonumber(ARGV[6]), ARGV[7]

-- The hold as it stands, read once: every branch below answers from it (and from what it
-- writes) instead of reading the hash again.
local state = redis.call('HMGET', lock_key, 'o', 'c', 'f', 'v', 'g', 't', 'u', 'w', 'p')
local holder = state[1]
local version = tonumber(state[4] or '0')
if ARGV[3] == '2' and (not holder or holder == owner) then return {0, 0, 0, 0, 0, 0, 0, 0, 0, 0} end

if not holder then
  -- a free lock means a new grant (to the queue head or to us): not while quarantined
  local left = quarantine_left(quarantine)
  if left > 0 then return {-3, 0, 0, left, 0, 0, 0, 0, 0, 0} end
  local next_holder, head_fence, marked = grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, owner)
  if not next_holder then
    -- A new grant: the hash is written whole here, so the answer needs no read of it. A free
    -- lock has no hash (a release deletes it; an expiry drops it whole), so no version either.
    local fence = next_fence(fence_key, fence_ttl)
    redis.call('HSET', lock_key, 'o', owner, 'c', 1, 'f', string.format('%.0f', fence), 't', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    return {1, fence, 1, lease, 0, 0, 0, version, 0, 0}
  end
  -- grant_head wrote the hash whole (count 1, its fence, the grant mark, granted now): the
  -- new holder is another waiter (busy for us, its use not begun), or this very caller, the
  -- queue's head, which claims its grant just below
  holder = next_holder
  state = {next_holder, '1', string.format('%.0f', head_fence), state[4], '1', tostring(now_ms), nil, marked and '1' or nil}
end

if holder == owner then
  -- A new grant or a claim leaves the owner out of the queue already (the queue was empty, or
  -- grant_head took it off); only a re-entry may still find it queued.
  if state[5] == '1' then
    -- claiming a direct grant: it becomes a normal hold with the full lease. Its use starts
    -- now (u), when the holder learns it holds; t keeps the grant's time. A pushed holder enters
    -- on the grant message and claims by extend: its use starts at the grant.
    redis.call('HDEL', lock_key, 'g')
    redis.call('HSET', lock_key, 'u', now_ms)
    redis.call('PEXPIRE', lock_key, lease)
    return {1, tonumber(state[3]), tonumber(state[2]), lease, 0, 0, 0, version, 0, 0}
  end
  local count = redis.call('HINCRBY', lock_key, 'c', 1)
  redis.call('ZREM', queue_key, owner)
  redis.call('ZREM', deadlines_key, owner)
  -- A nested acquire never shortens the lease of an outer hold, and leaves the lease version
  -- alone: it only lengthens, so no renewal ordered by the version can be undone by it.
  local pttl = redis.call('PTTL', lock_key)
  if pttl < lease then
    redis.call('PEXPIRE', lock_key, lease)
    pttl = lease
  end
  return {2, tonumber(state[3]), count, pttl, 0, 0, 0, version, 0, 0}
end

-- Busy. The remaining lease is read once: for the queue's horizon and for the answer.
local remaining = live_pttl(lock_key)
local position = 0
if queue then
  -- mark the hold: its release must look at the queue (one HSET, once per hold)
  if not state[8] then redis.call('HSET', lock_key, 'w', 1) end
  redis.call('ZADD', queue_key, 'NX', now_us, owner)
  redis.call('ZADD', deadlines_key, now_ms + return_within, owner)
  local horizon = remaining + return_within + 60000
  redis.call('PEXPIRE', queue_key, horizon)
  redis.call('PEXPIRE', deadlines_key, horizon)
  position = redis.call('ZRANK', queue_key, owner) + 1
end
local stats = redis.call('HMGET', stats_key, 'h', 'd', 'y')
-- The current hold's age counts from its use. An unclaimed grant a stream heard is in use: its
-- holder entered on the message and claims only if it holds long (pushed-grant.ts). One nobody
-- heard has not started: its holder learns of it at its next poll.
local age = 0
if state[5] ~= '1' or state[9] == '1' then age = now_ms - tonumber(state[7] or state[6] or now_ms) end
local function ms(v) return math.floor(tonumber(v or '0')) end
return {0, 0, 0, remaining, position, ms(stats[1]), age, 0, ms(stats[2]), ms(stats[3])}
