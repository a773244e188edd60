-- Take one permit with its own lease, claim a direct grant, or (optionally) wait in the FIFO queue.
-- The waiter id of the acquire call becomes the permit id, so a direct grant is simply a permit
-- that expires after the claim window unless its waiter claims it.
-- KEYS[1] state hash: t configured total   KEYS[2] permits (zset id -> expiry, server ms)
-- KEYS[3] waiter queue (zset id -> arrival µs)   KEYS[4] waiter poll deadlines (zset id -> server ms)
-- KEYS[5] fence counter   KEYS[6] this operation's record   KEYS[7] restart-quarantine sentinel
-- ARGV[1] waiter id   ARGV[2] lease ms   ARGV[3] 1 = join the queue when busy
-- ARGV[4] ms within which a queued waiter promises to poll again   ARGV[5] claim window ms
-- ARGV[6] operation record ttl ms   ARGV[7] fence counter ttl ms   ARGV[8] grant channel prefix
-- ARGV[9] quarantine ms (0: off)   ARGV[10] sentinel ttl ms
-- Returns {status, fence, lease ms, ms until the next permit expires, position, server ms}
--   status 1 granted, 0 busy (position > 0 when queued), -1 abandoned operation,
--   -3 quarantined (ms until the next expiry = ms left of the restart quarantine; queued as for 0)
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _settle.lua
local state_key, permits_key, queue_key, deadlines_key, fence_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local waiter, lease, queue = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local return_within, claim_ms, op_ttl, fence_ttl, channel_prefix = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]
local quarantine = {key = KEYS[7], ms = tonumber(ARGV[9]), ttl = tonumber(ARGV[10])}

local previous = op_get(op_key)
if previous == 'x' then return {-1, 0, 0, 0, 0, now_ms} end
if previous then return previous end

local function granted()
  redis.call('ZADD', permits_key, now_ms + lease, waiter)
  keep_permits_key(permits_key, now_ms + lease)
  return op_put(op_key, {1, next_fence(fence_key, fence_ttl), lease, 0, 0, now_ms}, op_ttl)
end

reclaim(permits_key)
grant_heads(state_key, permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, waiter, quarantine)
-- a live permit under this waiter's id can only be an unclaimed direct grant: claim it
if redis.call('ZSCORE', permits_key, waiter) then return granted() end

local queued = redis.call('ZSCORE', queue_key, waiter)
if not queued and available(state_key, permits_key) > 0 and redis.call('ZCARD', queue_key) == 0 then
  if quarantine_left(quarantine) == 0 then return granted() end
end

if queue then
  redis.call('ZADD', queue_key, 'NX', now_us, waiter)
  redis.call('ZADD', deadlines_key, now_ms + return_within, waiter)
  local horizon = return_within + 60000
  if redis.call('PTTL', queue_key) < horizon then
    redis.call('PEXPIRE', queue_key, horizon)
    redis.call('PEXPIRE', deadlines_key, horizon)
  end
end
local position = 0
local rank = redis.call('ZRANK', queue_key, waiter)
if rank then position = rank + 1 end
local next_expiry = 0
local first = redis.call('ZRANGE', permits_key, 0, 0, 'WITHSCORES')
if first[2] then next_expiry = math.max(tonumber(first[2]) - now_ms, 0) end
local left = quarantine_running(quarantine)
if left > 0 then return {-3, 0, 0, left, position, now_ms} end
return {0, 0, 0, next_expiry, position, now_ms}
