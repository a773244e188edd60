-- Delete one side of a read-write lock whoever holds it (an operator's tool), then hand the lock
-- to the first live queued writer if nothing is held any more. An operation like any other: a
-- late copy must not delete the next holder's lock.
-- @protocol
-- @key lock  writer hash
-- @key fence  fence counter
-- @key queue  writer queue
-- @key deadlines  writer poll deadlines
-- @key readers  readers
-- @key holds  reader holds
-- @arg side  'r' deletes every reader, 'w' deletes the writer
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status
--   status 1 something was deleted, 0 that side was free
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
