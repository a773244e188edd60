-- Release one hold of the read lock; when the last reader leaves and no writer holds, hand the
-- lock to the first live queued writer.
-- KEYS[1] writer hash   KEYS[2] fence counter   KEYS[3] writer queue   KEYS[4] writer deadlines
-- KEYS[5] readers   KEYS[6] reader holds   KEYS[7] this operation's record
-- ARGV[1] owner   ARGV[2] fence of the read hold (the state the caller expects)
-- ARGV[3] operation record ttl ms   ARGV[4] fence counter ttl ms   ARGV[5] grant channel prefix
-- Returns {status, remaining count of this reader}: status 1 released, 0 not held
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../common/op-record.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
local lock_key, fence_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers_key, holds_key, op_key = KEYS[5], KEYS[6], KEYS[7]
local owner, fence = ARGV[1], ARGV[2]
local op_ttl, fence_ttl, channel_prefix = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]

local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

purge_readers(readers_key, holds_key)
if redis.call('HGET', holds_key, 'f' .. owner) ~= fence then return {0, 0} end

local count = drop_reader_level(readers_key, holds_key, owner)
if count == 0 and redis.call('EXISTS', readers_key) == 0 and redis.call('EXISTS', lock_key) == 0 then
  grant_head(lock_key, fence_key, queue_key, deadlines_key, fence_ttl, channel_prefix, nil)
end
return op_put(op_key, {1, count}, op_ttl)
