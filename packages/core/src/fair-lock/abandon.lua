-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue at once, settle the operation (a tombstone until its deadline plus the margin, so a
-- late copy of it does nothing), and release what it took, if anything (the hold it was granted,
-- or a direct grant made to the waiter). Repeating it changes nothing more.
-- @key lock  lock hash
-- @key fence  fence counter
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
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
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[4]), ARGV[5]
local op_ttl = math.max(tonumber(ARGV[2]) + tonumber(ARGV[3]) - now_ms, 1)

-- @include ../lock/_abandon-take.lua
redis.call('DEL', lock_key)
grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
return {1}
