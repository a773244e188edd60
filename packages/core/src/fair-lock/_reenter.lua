-- An acquire by the owner that already holds the lock in the fair lock's layout (the fair lock, the
-- read-write lock's writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, owner, lease, holder, granted (_acquire-replay.lua).
if holder == owner then
  if redis.call('HGET', lock_key, 'g') == '1' then
    -- claiming a direct grant: it becomes a normal hold with the full lease
    redis.call('HDEL', lock_key, 'g')
    redis.call('PEXPIRE', lock_key, lease)
    return granted(1)
  end
  redis.call('HINCRBY', lock_key, 'c', 1)
  -- a nested acquire never shortens the lease of an outer hold
  if redis.call('PTTL', lock_key) < lease then redis.call('PEXPIRE', lock_key, lease) end
  return granted(2)
end
