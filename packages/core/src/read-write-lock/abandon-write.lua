-- Undo a write acquire whose caller gave up: leave the writers' queue at once, mark the operation
-- abandoned so a late copy does nothing, and release what it took (the hold it was granted, or a
-- direct grant made to it); then hand the lock on if no reader remains.
-- KEYS[1] writer hash   KEYS[2] fence counter   KEYS[3] writer queue   KEYS[4] writer deadlines
-- KEYS[5] readers   KEYS[6] reader holds   KEYS[7] the abandoned operation's record
-- ARGV[1] owner   ARGV[2] operation record ttl ms   ARGV[3] fence counter ttl ms
-- ARGV[4] grant channel prefix
-- Returns {status}: 1 released a hold or grant, 0 nothing to release
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, op_key = KEYS[5], KEYS[6], KEYS[7]
local owner, op_ttl, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]

-- @include ../lock/_abandon-take.lua
redis.call('DEL', lock_key)
purge_readers(readers_key, holds_key)
if redis.call('EXISTS', readers_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return {1}
