-- Release one hold of the fair lock; when the count reaches zero, hand the lock to the first live
-- waiter (strict FIFO).
-- @protocol
-- @key lock  lock hash (see acquire.lua)
-- @key fence  fence counter
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key stats  hold statistics
-- @arg owner
-- @arg fence  fence of the hold being released (the state the caller expects)
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @arg statsTtlMs  statistics ttl ms
-- @reply status remaining
--   status 1 released (remaining: the count left), 0 not held by this owner and fence
-- @include ../common/fence.lua
-- @include _grant-head.lua
-- @include _hold-stats.lua
local lock_key, fence_key, queue_key, deadlines_key, stats_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, fence = ARGV[1], ARGV[2]
local fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])

-- @include _release-level.lua
record_hold(stats_key, held_since, stats_ttl)
-- only a hold someone queued behind (w) has a queue to hand on to (an older client's hold has no
-- mark: its waiters find the lock free on their next poll, within their declared return window)
if state[7] == '1' then grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil) end
return {1, 0}
