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
-- @arg renewed  1 when the releasing copy knows the permit was renewed (it has a lease version
--   entry to delete), else 0; an entry another copy made is left to expire with its hash
-- @reply status
--   status 1 released, 0 no such live permit (released before, or expired)
-- @include ../common/fence.lua
-- @include _grant-heads.lua
local state_key, permits_key, versions_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local permit, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local fence, renewed = {key = KEYS[6], ttl = tonumber(ARGV[4])}, ARGV[5] == '1'

-- An expired permit is no longer this holder's: it is dropped all the same (the purge would), but
-- the answer is 0. Its lease version goes with it; the zset outlived its expiry, so a grant
-- made here that expires no later needs no ttl read.
local expiry = tonumber(redis.call('ZSCORE', permits_key, permit))
if not expiry then return {0} end
redis.call('ZREM', permits_key, permit)
if renewed then redis.call('HDEL', versions_key, permit) end
pass_on(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, quarantine, fence, expiry)
if expiry < now_ms then return {0} end
return {1}
