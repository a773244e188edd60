-- Acquire or re-enter the read lock. Readers share; each reader has its own lease (its expiry in
-- the readers zset), so an expired reader stops counting at once and the state lives as long as
-- the longest reader. Writer preference: while a writer holds, or a live writer is queued, new
-- readers wait (readers already holding may re-enter), so readers cannot starve writers. The
-- writer itself may take the read lock (downgrade). Readers never queue: they poll.
-- A new read session gets a fence from the lock's counter: above every writer granted before it,
-- below every writer granted after it; its lease version starts at 0.
-- @protocol
-- @key lock  writer hash (see acquire-write.lua)
-- @key fence  fence counter
-- @key queue  writer queue
-- @key deadlines  writer poll deadlines
-- @key readers  readers (zset owner -> expiry ms)
-- @key holds  reader holds (hash: c<owner> count, f<owner> fence, v<owner> lease version)
-- @key stats  hold statistics
-- @arg owner
-- @arg leaseMs
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status fence count pttl position meanHoldMs holdAgeMs version
--   status 1 granted, 2 re-entered, 0 busy, -3 quarantined (pttl = ms left of the restart
--   quarantine; no grant made)
-- @include ../common/fence.lua
-- @include ../common/live-pttl.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key = KEYS[5], KEYS[6], KEYS[7]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local fence_ttl, channel_prefix = tonumber(ARGV[3]), ARGV[4]

-- Which of the readers and the writer queue exist, in one EXISTS: the readers' key is named twice,
-- so it counts 2 and the queue 1 (Redis and Upstash count a key each time it is named). On a name
-- with neither, the common case, that one command stands for the readers' count and the queue's
-- read. No reader at all: none to purge, and this is no re-entry.
local present = redis.call('EXISTS', readers_key, readers_key, queue_key)
local readers = present >= 2 and live_readers(readers_key, holds_key, true)
local writers_queued = present % 2 == 1
local expiry = readers and tonumber(redis.call('ZSCORE', readers_key, owner))
if expiry then
  -- re-entry, also while writers wait: refusing it could deadlock the reader against itself. It
  -- only lengthens the reader's lease, so it leaves the lease version alone.
  local count = redis.call('HINCRBY', holds_key, 'c' .. owner, 1)
  expiry = math.max(expiry, now_ms + lease)
  redis.call('ZADD', readers_key, expiry, owner)
  readers_ttl(readers_key, holds_key)
  local mine = redis.call('HMGET', holds_key, 'f' .. owner, 'v' .. owner)
  return {2, tonumber(mine[1] or '0'), count, expiry - now_ms, 0, 0, 0, tonumber(mine[2] or '0')}
end

local writer = redis.call('HMGET', lock_key, 'o', 'g', 't')
if not writer[1] then
  -- with no writer, a new read session or a grant to a queued writer may follow: a new grant,
  -- not while quarantined (a downgrade needs a writer, granted after any quarantine)
  local left = quarantine_left(quarantine)
  if left > 0 then return {-3, 0, 0, left, 0, 0, 0, 0} end
end
local admit
if writer[1] then
  admit = writer[1] == owner and writer[2] ~= '1' -- downgrade: the writer may also read
elseif writers_queued and first_live_writer(queue_key, deadlines_key) then
  admit = false
  if not readers then
    -- the lock is idle and a writer waits: hand it over now rather than at its next poll
    grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
  end
else
  admit = true
end

if admit then
  -- a downgrade: the writer's release must look for live readers (it is the only way one lives
  -- beside a writer); one HSET, on this path only (the flag goes with the writer's hash)
  if writer[1] then redis.call('HSET', lock_key, 'd', 1) end
  local fence = next_fence(fence_key, fence_ttl)
  -- v written, not left absent: a field an old client's release left behind must not leak in
  local fields = {'c' .. owner, 1, 'f' .. owner, string.format('%.0f', fence), 'v' .. owner, 0}
  -- A downgrade marks the readers as waited for (w), in the same HSET: a writer queued behind
  -- the write hold waits for this read too, and if the write hold ends without a release (its
  -- lease runs out), the mark it carried goes with it; the last reader's release must hand on.
  if writer[1] then fields[7], fields[8] = 'w', 1 end
  redis.call('HSET', holds_key, unpack(fields))
  redis.call('ZADD', readers_key, now_ms + lease, owner)
  if readers then
    readers_ttl(readers_key, holds_key)
  else
    -- the only reader: both keys live exactly as long as its lease
    redis.call('PEXPIRE', readers_key, lease)
    redis.call('PEXPIRE', holds_key, lease)
  end
  return {1, fence, 1, lease, 0, 0, 0, 0}
end

-- a reader waits for this writer's release: ask the release to tell readers (push), at the cost
-- of one HSET on this busy path only (the flag goes with the writer's hash)
if writer[1] then redis.call('HSET', lock_key, 'r', 1) end
local busy_ttl = math.max(live_pttl(lock_key), readers_ttl(readers_key, holds_key), 0)
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = now_ms - tonumber(writer[3] or now_ms)
return {0, 0, 0, busy_ttl, 0, math.floor(mean_hold), age, 0}
