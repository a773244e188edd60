-- Delete the fair lock whoever holds it (an operator's tool), then hand it to the first live waiter.
-- KEYS[1] lock hash   KEYS[2] fence counter   KEYS[3] waiter queue   KEYS[4] waiter deadlines
-- ARGV[1] fence counter ttl ms   ARGV[2] grant channel prefix
-- Returns {1} when a hold was deleted, {0} when the lock was free
-- @include ../common/now.lua
-- @include ../common/fence.lua
-- @include _grant-head.lua
if redis.call('DEL', KEYS[1]) == 0 then return {0} end
grant_head(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), ARGV[2], nil)
return {1}
