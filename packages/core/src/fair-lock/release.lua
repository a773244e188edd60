-- Release one hold of the fair lock; when the count reaches zero, hand the lock to the first live
-- waiter (strict FIFO).
-- KEYS[1] lock hash   KEYS[2] fence counter   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] hold statistics   KEYS[6] this operation's record
-- ARGV[1] owner   ARGV[2] fence of the hold being released (the state the caller expects)
-- ARGV[3] operation record ttl ms   ARGV[4] fence counter ttl ms   ARGV[5] grant channel prefix
-- ARGV[6] statistics ttl ms
-- Returns {status, remaining count}: status 1 released, 0 not held by this owner and fence
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include _grant-head.lua
-- @include _hold-stats.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, fence = ARGV[1], ARGV[2]
local op_ttl, fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])

-- @include _release-level.lua
grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
return op_put(op_key, {1, 0}, op_ttl)
