-- An acquire by the owner that already holds the lock in the fair lock's layout (the fair lock, the
-- read-write lock's writer), inlined where it is included (it is a step of the script, not a function).
-- In scope: lock_key, owner, lease, holder, claimed (g of the hash), granted (_granted.lua).
if holder == owner then
  if claimed == '1' then
    -- claiming a direct grant: it becomes a normal hold with the full lease (version 0, the grant's)
    redis.call('HDEL', lock_key, 'g')
    redis.call('PEXPIRE', lock_key, lease)
    return granted(1)
  end
  redis.call('HINCRBY', lock_key, 'c', 1)
  -- A nested acquire never shortens the lease of an outer hold, and leaves the lease version
  -- alone: it only lengthens, so no renewal ordered by the version can be undone by it.
  if redis.call('PTTL', lock_key) < lease then redis.call('PEXPIRE', lock_key, lease) end
  return granted(2)
end
