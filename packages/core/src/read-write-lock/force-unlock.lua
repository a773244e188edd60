-- Delete one side of a read-write lock whoever holds it (an operator's tool), then hand the lock
-- to the first live queued writer if nothing is held any more.
-- KEYS[1] writer hash   KEYS[2] fence counter   KEYS[3] writer queue   KEYS[4] writer deadlines
-- KEYS[5] readers   KEYS[6] reader holds
-- ARGV[1] 'r' deletes every reader, 'w' deletes the writer   ARGV[2] fence counter ttl ms
-- ARGV[3] grant channel prefix
-- Returns {1} when something was deleted, {0} when that side was free
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include ../fair-lock/_grant-head.lua
-- @include _readers.lua
purge_readers(KEYS[5], KEYS[6])
local deleted
if ARGV[1] == 'w' then
  deleted = redis.call('DEL', KEYS[1])
else
  deleted = redis.call('DEL', KEYS[5], KEYS[6])
end
if deleted == 0 then return {0} end
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[5]) == 0 then
  grant_head(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[2]), ARGV[3], nil)
end
return {1}
