-- Release one hold of the write lock; when its count reaches zero and no reader remains (the
-- writer may have downgraded to a read hold), hand the lock to the first live queued writer.
-- KEYS[1] writer hash   KEYS[2] fence counter   KEYS[3] writer queue   KEYS[4] writer deadlines
-- KEYS[5] readers   KEYS[6] reader holds   KEYS[7] hold statistics   KEYS[8] this operation's record
-- ARGV[1] owner   ARGV[2] fence of the hold being released (the state the caller expects)
-- ARGV[3] operation record ttl ms   ARGV[4] fence counter ttl ms   ARGV[5] grant channel prefix
-- ARGV[6] statistics ttl ms
-- Returns {status, remaining count}: status 1 released, 0 not held by this owner and fence
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../fair-lock/_grant-head.lua
-- @include ../fair-lock/_hold-stats.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key, op_key = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local owner, fence = ARGV[1], ARGV[2]
local op_ttl, fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])

-- @include ../fair-lock/_release-level.lua
purge_readers(readers_key, holds_key)
if redis.call('EXISTS', readers_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return op_put(op_key, {1, 0}, op_ttl)
