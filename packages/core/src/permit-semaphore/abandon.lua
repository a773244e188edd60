-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue, settle the operation (a tombstone until its deadline plus the margin, so a late copy
-- does nothing), and drop the permit under its waiter id (a direct grant, or what the abandoned
-- operation took: the caller holds neither). Not @protocol: it is its own settle.
-- @key state  state hash
-- @key permits  permits
-- @key versions  lease versions
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key op  the abandoned operation's record
-- @key sentinel  restart-quarantine sentinel (no grant to the heads while it lasts)
-- @key fence  fence counter
-- @arg waiter
-- @arg deadline  the abandoned operation's deadline (server ms)
-- @arg margin  record margin ms
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @arg quarantineMs  restart quarantine ms (0: off)
-- @arg sentinelTtlMs  sentinel ttl ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @reply back
--   back 1 when a permit was given back, else 0
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include ../common/fence.lua
-- @include _grant-heads.lua
local state_key, permits_key, versions_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local waiter = ARGV[1]
local op_ttl = math.max(tonumber(ARGV[2]) + tonumber(ARGV[3]) - now_ms, 1)
local claim_ms, channel_prefix = tonumber(ARGV[4]), ARGV[5]
local quarantine = {key = KEYS[7], ms = tonumber(ARGV[6]), ttl = tonumber(ARGV[7])}

if op_get(op_key) == 'x' then return {0} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
redis.call('ZREM', queue_key, waiter)
redis.call('ZREM', deadlines_key, waiter)
reclaim(permits_key, versions_key)
local removed = redis.call('ZREM', permits_key, waiter)
redis.call('HDEL', versions_key, waiter)
pass_on(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, quarantine, {key = KEYS[8], ttl = tonumber(ARGV[8])})
return {removed}
