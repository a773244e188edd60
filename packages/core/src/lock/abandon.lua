-- Undo an acquire whose caller gave up (aborted, timed out, or never learned the outcome): leave
-- the queue, mark the operation abandoned so a late copy of it does nothing, and release what it
-- took, if anything (the hold it was granted, or a direct grant made to the waiter).
-- KEYS[1] lock hash   KEYS[2] fence counter   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- KEYS[5] the abandoned operation's record
-- ARGV[1] owner   ARGV[2] operation record ttl ms   ARGV[3] claim window ms
-- ARGV[4] fence counter ttl ms   ARGV[5] grant channel prefix
-- Returns {status}: 1 released a hold or grant, 0 nothing to release
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include _grant-head.lua
local lock_key, fence_key, queue_key, deadlines_key, op_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, op_ttl, claim_ms, fence_ttl, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]

-- @include _abandon-take.lua
redis.call('DEL', lock_key)
grant_head(lock_key, fence_key, queue_key, deadlines_key, claim_ms, fence_ttl, channel_prefix, nil)
return {1}
