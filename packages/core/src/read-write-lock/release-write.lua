-- Release one hold of the write lock; when its count reaches zero and no reader remains (the
-- writer may have downgraded to a read hold), hand the lock to the first live queued writer;
-- otherwise, when readers wait for it, publish `free` on `channelPrefix` itself.
-- @protocol
-- @key lock  writer hash
-- @key fence  fence counter
-- @key queue  writer queue
-- @key deadlines  writer poll deadlines
-- @key readers  readers
-- @key holds  reader holds
-- @key stats  hold statistics
-- @arg owner
-- @arg fence  fence of the hold being released (the state the caller expects)
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @arg statsTtlMs  statistics ttl ms
-- @reply status remaining
--   status 1 released (remaining: the count left), 0 not held by this owner and fence
-- @include ../common/fence.lua
-- @include ../fair-lock/_grant-head.lua
-- @include ../fair-lock/_hold-stats.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, stats_key = KEYS[5], KEYS[6], KEYS[7]
local owner, fence = ARGV[1], ARGV[2]
local fence_ttl, channel_prefix, stats_ttl = tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])

-- @include ../fair-lock/_release-level.lua
local writer = nil
-- Only a hold someone queued behind (w) has a queue to hand on to (see _enqueue.lua).
if state[7] == '1' then
  -- A reader can be live now only if this writer downgraded (d): else no reader to look for.
  if state[6] == '1' and live_readers(readers_key, holds_key) then
    -- the writers queued behind this hold now wait for the downgrade's readers: mark them (the
    -- holds hash lives as long as they do), so that the last of them hands on
    redis.call('HSET', holds_key, 'w', 1)
  else
    writer = grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
  end
end
-- Readers found this writer in their way and wait: unless a queued writer got the lock, tell
-- them on the name's own channel (the prefix, no owner), where their push listens.
if state[4] == '1' and not writer then redis.call('PUBLISH', channel_prefix, 'free') end
record_hold(stats_key, held_since, stats_ttl)
return {1, 0}
