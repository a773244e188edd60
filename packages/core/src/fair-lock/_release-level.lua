-- The release of one hold level in the fair lock's layout (the fair lock, the read-write lock's
-- writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, owner, fence. Returns {0, 0} when this owner and fence do not hold,
-- {1, count} while nested levels remain; otherwise deletes the lock and falls through with the
-- hold's grant time in `held_since` (the includer hands the lock on, records the hold's duration
-- when someone waited for it (_hold-stats.lua), and replies).
-- The protocol records every answer: a copy changes nothing. A grant still unclaimed is released
-- too, as the Lock's is: a waiter that entered on its grant message may release before its
-- background claim lands (its claim then finds the grant gone and changes nothing).
-- (r: readers of a read-write lock wait for this writer's release, the includer may tell them;
-- d: this writer took a read hold too, the only way a reader lives beside a writer;
-- w: someone queued behind this hold, so the includer hands on only then: see _enqueue.lua)
local state = redis.call('HMGET', lock_key, 'o', 'f', 't', 'r', 'c', 'd', 'w')
if state[1] ~= owner or state[2] ~= fence then return {0, 0} end

-- The last level (the usual case) needs no decrement: the hash is deleted below.
if tonumber(state[5] or '1') > 1 then return {1, redis.call('HINCRBY', lock_key, 'c', -1)} end

local held_since = state[3]
redis.call('DEL', lock_key)
