-- Release one permit by id, then hand the freed permit to the head of the queue.
-- @protocol
-- @key state  state hash
-- @key permits  permits
-- @key versions  lease versions
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key fence  fence counter
-- @arg permit  permit id
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @arg fenceTtlMs  fence counter ttl ms
-- @reply status
--   status 1 released, 0 no such live permit (released before, or expired)
-- @include ../common/fence.lua
-- @include _grant-heads.lua
local state_key, permits_key, versions_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local permit, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local fence = {key = KEYS[6], ttl = tonumber(ARGV[4])}

reclaim(permits_key, versions_key)
local removed = redis.call('ZREM', permits_key, permit)
if removed == 1 then redis.call('HDEL', versions_key, permit) end
pass_on(state_key, permits_key, queue_key, deadlines_key, claim_ms, channel_prefix, quarantine, fence)
return {removed}
