-- Readers of a read-write lock: a zset reader -> lease expiry (server ms) and a hash with each
-- reader's count (`c<owner>`), fence (`f<owner>`) and lease version (`v<owner>`, absent: 0). A reader lives while its expiry is in the
-- future; both keys live exactly as long as the longest reader.

-- Drop readers whose lease has run out (each once, so O(log n) amortised per reader).
local function purge_readers(readers_key, holds_key)
  local expired = redis.call('ZRANGEBYSCORE', readers_key, '-inf', now_ms)
  if #expired == 0 then return end
  for _, reader in ipairs(expired) do redis.call('HDEL', holds_key, 'c' .. reader, 'f' .. reader, 'v' .. reader) end
  redis.call('ZREMRANGEBYSCORE', readers_key, '-inf', now_ms)
end

-- Whether any live reader remains, expired ones dropped first. A writer's scripts ask this on a
-- lock that usually has no reader at all: then one ZCARD answers, instead of the purge's range
-- query and an EXISTS (`known_present`: the caller already knows the readers' key exists).
local function live_readers(readers_key, holds_key, known_present)
  if not known_present and redis.call('ZCARD', readers_key) == 0 then return false end
  purge_readers(readers_key, holds_key)
  return redis.call('EXISTS', readers_key) == 1
end

-- Keep both keys alive until the longest reader's expiry; returns that remaining time (0: none).
local function readers_ttl(readers_key, holds_key)
  local last = redis.call('ZRANGE', readers_key, -1, -1, 'WITHSCORES')
  if not last[2] then
    redis.call('DEL', readers_key, holds_key)
    return 0
  end
  local ttl = math.max(tonumber(last[2]) - now_ms, 1)
  redis.call('PEXPIRE', readers_key, ttl)
  redis.call('PEXPIRE', holds_key, ttl)
  return ttl
end

-- The first queued writer that has kept its poll deadline; dead ones ahead of it are dropped.
local function first_live_writer(queue_key, deadlines_key)
  while true do
    local head = redis.call('ZRANGE', queue_key, 0, 0)[1]
    if not head then return nil end
    local deadline = tonumber(redis.call('ZSCORE', deadlines_key, head))
    if deadline and deadline >= now_ms then return head end
    redis.call('ZREM', queue_key, head)
    redis.call('ZREM', deadlines_key, head)
  end
end

-- Drop one hold level of a live reader (`count`: the levels it holds, read by the caller);
-- returns what the reader has left and, when it left, how long the longest remaining reader
-- lasts (0: none, and both keys are gone). Expired readers may still be in the zset (a release
-- does not purge): the only member, the reader itself, means no one else; a longest remaining
-- reader already expired means none live. `alone`: whether the reader is the zset's only member,
-- when the caller already knows (nil: one ZCARD asks).
local function drop_reader_level(readers_key, holds_key, owner, count, alone)
  if count > 1 then return redis.call('HINCRBY', holds_key, 'c' .. owner, -1), 1 end
  if alone == nil then alone = redis.call('ZCARD', readers_key) == 1 end
  if alone then
    redis.call('DEL', readers_key, holds_key)
    return 0, 0
  end
  redis.call('ZREM', readers_key, owner)
  local last = redis.call('ZRANGE', readers_key, -1, -1, 'WITHSCORES')
  if not last[2] or tonumber(last[2]) <= now_ms then
    -- the last reader: both keys go whole, this reader's fields with them
    redis.call('DEL', readers_key, holds_key)
    return 0, 0
  end
  redis.call('HDEL', holds_key, 'c' .. owner, 'f' .. owner, 'v' .. owner)
  local ttl = math.max(tonumber(last[2]) - now_ms, 1)
  redis.call('PEXPIRE', readers_key, ttl)
  redis.call('PEXPIRE', holds_key, ttl)
  return 0, ttl
end
