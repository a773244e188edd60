-- trySetPermits (mode 'set': only when not set yet) and addPermits (mode 'add': change the total
-- by a delta, negative allowed, as in Redisson; refused below zero). Then serve waiting heads.
-- @protocol
-- @key state  state hash
-- @key permits  permits
-- @key versions  lease versions
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @key fence  fence counter
-- @arg mode  'set' or 'add'
-- @arg amount
-- @arg claimMs  claim window ms
-- @arg channelPrefix  grant channel prefix
-- @arg fenceTtlMs  fence counter ttl ms
-- @reply status available total
--   status 1 applied, 0 refused (already set / total below zero)
-- @include ../common/fence.lua
-- @include _grant-heads.lua
local state_key, permits_key, versions_key, queue_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local mode, amount, claim_ms, channel_prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local fence = {key = KEYS[6], ttl = tonumber(ARGV[5])}

reclaim(permits_key, versions_key)
local total = tonumber(redis.call('HGET', state_key, 't') or '0')
local refused = (mode == 'set' and redis.call('EXISTS', state_key) == 1) or (mode == 'add' and total + amount < 0)
if refused then return {0, available(state_key, permits_key, versions_key), total} end
if mode == 'set' then total = amount else total = total + amount end
redis.call('HSET', state_key, 't', total)
local free = grant_heads(state_key, permits_key, versions_key, queue_key, deadlines_key, claim_ms, channel_prefix, nil, quarantine, fence)
return {1, free, total}
