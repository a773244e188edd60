-- Release one hold of the read lock; when the last reader leaves and no writer holds, hand the
-- lock to the first live queued writer.
-- @protocol
-- @key lock  writer hash
-- @key fence  fence counter
-- @key queue  writer queue
-- @key deadlines  writer poll deadlines
-- @key readers  readers
-- @key holds  reader holds
-- @arg owner
-- @arg fence  fence of the read hold (the state the caller expects)
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status remaining
--   status 1 released (remaining: what this reader has left), 0 not held
-- @include ../common/fence.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key = KEYS[5], KEYS[6]
local owner, fence = ARGV[1], ARGV[2]
local fence_ttl, channel_prefix = tonumber(ARGV[3]), ARGV[4]

purge_readers(readers_key, holds_key)
local mine = redis.call('HMGET', holds_key, 'f' .. owner, 'c' .. owner)
if mine[1] ~= fence then return {0, 0} end

local count, readers_left = drop_reader_level(readers_key, holds_key, owner, tonumber(mine[2] or '1'))
-- the last reader left: a queued writer (if any: on a name without one, one ZCARD says so) may
-- take the lock, unless a writer already holds it (the reader was the writer's own, a downgrade)
if count == 0 and readers_left == 0 and redis.call('ZCARD', queue_key) > 0 and redis.call('EXISTS', lock_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return {1, count}
