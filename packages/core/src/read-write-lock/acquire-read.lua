-- Acquire or re-enter the read lock. Readers share; each reader has its own lease (its expiry in
-- the readers zset), so an expired reader stops counting at once and the state lives as long as
-- the longest reader. Writer preference: while a writer holds, or a live writer is queued, new
-- readers wait (readers already holding may re-enter), so readers cannot starve writers. The
-- writer itself may take the read lock (downgrade). Readers never queue: they poll.
-- A new read session gets a fence from the lock's counter: above every writer granted before it,
-- below every writer granted after it.
-- KEYS[1] writer hash   KEYS[2] fence counter   KEYS[3] writer queue   KEYS[4] writer deadlines
-- KEYS[5] readers (zset owner -> expiry ms)   KEYS[6] reader holds (hash)   KEYS[7] hold statistics
-- KEYS[8] this operation's record   KEYS[9] restart-quarantine sentinel
-- ARGV[1] owner   ARGV[2] lease ms   ARGV[3] operation record ttl ms   ARGV[4] fence counter ttl ms
-- ARGV[5] grant channel prefix   ARGV[6] quarantine ms (0: off)   ARGV[7] sentinel ttl ms
-- Returns {status, fence, count, pttl, position, mean hold ms, current hold age ms, server ms}
--   status 1 granted, 2 re-entered, 0 busy, -1 abandoned operation, -3 quarantined (pttl = ms
--   left of the restart quarantine; no grant made)
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key, op_key = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local owner, lease = ARGV[1], tonumber(ARGV[2])
local op_ttl, fence_ttl, channel_prefix = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local quarantine = {key = KEYS[9], ms = tonumber(ARGV[6]), ttl = tonumber(ARGV[7])}

local previous = op_get(op_key)
if previous == 'x' then return {-1, 0, 0, 0, 0, 0, 0, now_ms} end
if previous then return previous end

purge_readers(readers_key, holds_key)

local expiry = tonumber(redis.call('ZSCORE', readers_key, owner))
if expiry then
  -- re-entry, also while writers wait: refusing it could deadlock the reader against itself
  local count = redis.call('HINCRBY', holds_key, 'c' .. owner, 1)
  expiry = math.max(expiry, now_ms + lease)
  redis.call('ZADD', readers_key, expiry, owner)
  readers_ttl(readers_key, holds_key)
  local fence = tonumber(redis.call('HGET', holds_key, 'f' .. owner) or '0')
  return op_put(op_key, {2, fence, count, expiry - now_ms, 0, 0, 0, now_ms}, op_ttl)
end

local writer = redis.call('HMGET', lock_key, 'o', 'g', 't')
if not writer[1] then
  -- with no writer, a new read session or a grant to a queued writer may follow: a new grant,
  -- not while quarantined (a downgrade needs a writer, granted after any quarantine)
  local left = quarantine_left(quarantine)
  if left > 0 then return {-3, 0, 0, left, 0, 0, 0, now_ms} end
end
local admit
if writer[1] then
  admit = writer[1] == owner and writer[2] ~= '1' -- downgrade: the writer may also read
elseif first_live_writer(queue_key, deadlines_key) then
  admit = false
  if redis.call('EXISTS', readers_key) == 0 then
    -- the lock is idle and a writer waits: hand it over now rather than at its next poll
    grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
  end
else
  admit = true
end

if admit then
  local fence = next_fence(fence_key, fence_ttl)
  redis.call('HSET', holds_key, 'c' .. owner, 1, 'f' .. owner, string.format('%.0f', fence))
  redis.call('ZADD', readers_key, now_ms + lease, owner)
  readers_ttl(readers_key, holds_key)
  return op_put(op_key, {1, fence, 1, lease, 0, 0, 0, now_ms}, op_ttl)
end

local busy_ttl = math.max(redis.call('PTTL', lock_key), readers_ttl(readers_key, holds_key), 0)
local mean_hold = tonumber(redis.call('HGET', stats_key, 'h') or '0')
local age = now_ms - tonumber(redis.call('HGET', lock_key, 't') or now_ms)
return {0, 0, 0, busy_ttl, 0, math.floor(mean_hold), age, now_ms}
