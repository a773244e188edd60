-- Undo a write acquire whose caller gave up: leave the writers' queue at once, settle the
-- operation (a tombstone until its deadline plus the margin, so a late copy does nothing), and
-- release what it took (the hold it was granted, or a direct grant made to it); then hand the
-- lock on if no reader remains.
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
--   status 1 released a hold or grant, 0 nothing to release
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, op_key = KEYS[5], KEYS[6], KEYS[7]
local owner, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[4]), ARGV[5]
local op_ttl = math.max(tonumber(ARGV[2]) + tonumber(ARGV[3]) - now_ms, 1)

-- @include ../lock/_abandon-take.lua
redis.call('DEL', lock_key)
purge_readers(readers_key, holds_key)
if redis.call('EXISTS', readers_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return {1}
