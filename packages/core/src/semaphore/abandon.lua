-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue, settle the operation (a tombstone until its deadline plus the margin, so a late copy
-- of it does nothing), give back a direct grant made to the waiter and what the abandoned
-- operation took. Repeating it changes nothing more. Not @protocol: it is its own settle.
-- @key state  state hash
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key grants  direct grants
-- @key op  the abandoned operation's record
-- @key sentinel  restart-quarantine sentinel (no grant to the heads while it lasts)
-- @arg waiter
-- @arg permits
-- @arg deadline  the abandoned operation's deadline (server ms)
-- @arg margin  record margin ms
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @arg quarantineMs  restart quarantine ms (0: off)
-- @arg sentinelTtlMs  sentinel ttl ms
-- @reply back again
--   back: the permits given back; again: 1 when the operation was already settled or abandoned
--   (this is a repeat: it changes nothing)
-- @include ../common/op-record.lua
-- @include ../common/quarantine.lua
-- @include _grant-heads.lua
local state_key, queue_key, deadlines_key, grants_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local waiter, permits = ARGV[1], tonumber(ARGV[2])
local op_ttl = math.max(tonumber(ARGV[3]) + tonumber(ARGV[4]) - now_ms, 1)
local claim_ms, channel_prefix = tonumber(ARGV[5]), ARGV[6]
local member = permits .. ':' .. waiter
local quarantine = {key = KEYS[6], ms = tonumber(ARGV[7]), ttl = tonumber(ARGV[8])}

local previous = op_get(op_key)
if previous == 'x' then return {0, 1} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
redis.call('ZREM', queue_key, member)
redis.call('ZREM', deadlines_key, member)

local available, total = load_state(state_key, grants_key)
local back = 0
if redis.call('ZREM', grants_key, member) == 1 then back = back + permits end
if previous and previous[1] == 1 then back = back + permits end
if not total then return {back, 0} end
local changed
available, changed = grant_heads(queue_key, deadlines_key, grants_key, claim_ms, channel_prefix, nil, quarantine, available + back)
if back > 0 or changed then redis.call('HSET', state_key, 'a', available) end
return {back, 0}
