-- Undo a read acquire whose caller gave up without learning the outcome: settle the operation (a
-- tombstone until its deadline plus the margin, so a late copy does nothing), and give back the
-- read level it took, if it ran. Repeating it changes nothing more.
-- @key lock  writer hash
-- @key fence  fence counter
-- @key queue  writer queue
-- @key deadlines  writer poll deadlines
-- @key readers  readers
-- @key holds  reader holds
-- @key op  the abandoned operation's record
-- @arg owner
-- @arg deadline  the abandoned operation's deadline (server ms)
-- @arg margin  record margin ms
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status
--   status 1 released a read level, 0 nothing to release
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, op_key = KEYS[5], KEYS[6], KEYS[7]
local owner, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[4]), ARGV[5]
local op_ttl = math.max(tonumber(ARGV[2]) + tonumber(ARGV[3]) - now_ms, 1)

local previous = op_get(op_key)
if previous == 'x' then return {0} end
redis.call('SET', op_key, 'x', 'PX', op_ttl)
if not previous or (previous[1] ~= 1 and previous[1] ~= 2) then return {0} end

purge_readers(readers_key, holds_key)
local mine = redis.call('HMGET', holds_key, 'f' .. owner, 'c' .. owner)
if mine[1] ~= string.format('%.0f', previous[2]) then return {0} end
local count, readers_left = drop_reader_level(readers_key, holds_key, owner, tonumber(mine[2] or '1'))
-- the last reader left: a queued writer (if any: on a name without one, one ZCARD says so) may
-- take the lock, unless a writer already holds it (the reader was the writer's own, a downgrade)
if count == 0 and readers_left == 0 and redis.call('ZCARD', queue_key) > 0 and redis.call('EXISTS', lock_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return {1}
