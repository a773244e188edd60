-- Delete the fair lock whoever holds it (an operator's tool), then hand it to the first live waiter.
-- An operation like any other: a late copy must not delete the next holder's lock.
-- @protocol
-- @key lock  lock hash
-- @key fence  fence counter
-- @key queue  waiter queue
-- @key deadlines  waiter poll deadlines
-- @arg fenceTtlMs  fence counter ttl ms
-- @arg channelPrefix  grant channel prefix
-- @reply status
--   status 1 a hold was deleted, 0 the lock was free
-- @include ../common/fence.lua
-- @include _grant-head.lua
if redis.call('DEL', KEYS[1]) == 0 then return {0} end
grant_head(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), ARGV[2], nil)
return {1}
