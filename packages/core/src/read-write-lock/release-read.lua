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

-- This reader's own expiry says whether it still holds (expired at its expiry's millisecond, as
-- the purge counts): no purge of the others is needed for that. The first two readers, in one
-- read, give it and whether the reader is alone, the common case; a reader further on reads its
-- own.
local first = redis.call('ZRANGE', readers_key, 0, 1, 'WITHSCORES')
local at = first[1] == owner and 2 or first[3] == owner and 4
local expiry = tonumber(at and first[at] or first[3] and redis.call('ZSCORE', readers_key, owner))
if not expiry or expiry <= now_ms then return {0, 0} end
local alone = first[3] == nil
local mine = redis.call('HMGET', holds_key, 'f' .. owner, 'c' .. owner, 'w')
if mine[1] ~= fence then return {0, 0} end

local count, readers_left = drop_reader_level(readers_key, holds_key, owner, tonumber(mine[2] or '1'), alone)
-- the last reader left: a writer queued behind the readers (w in the holds hash: see
-- acquire-write.lua) may take the lock, unless a writer already holds it (the reader was the
-- writer's own, a downgrade)
if count == 0 and readers_left == 0 and mine[3] == '1' and redis.call('EXISTS', lock_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return {1, count}
