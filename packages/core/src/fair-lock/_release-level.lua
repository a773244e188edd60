-- The release of one hold level in the fair lock's layout (the fair lock, the read-write lock's
-- writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, stats_key, op_key, owner, fence, op_ttl, stats_ttl (and op-record.lua,
-- _hold-stats.lua). Replays a completed release; returns {0, 0} when this owner and fence do not
-- hold (or the grant is unclaimed), {1, count} while nested levels remain; otherwise records the
-- hold's duration, deletes the lock and falls through (the includer hands it on and replies).
local previous = op_get(op_key)
if previous and previous ~= 'x' then return previous end

local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'g')
if state[1] ~= owner or state[2] ~= fence or state[4] == '1' then return {0, 0} end

local count = redis.call('HINCRBY', lock_key, 'c', -1)
if count > 0 then return op_put(op_key, {1, count}, op_ttl) end

record_hold(stats_key, state[3], stats_ttl)
redis.call('DEL', lock_key)
