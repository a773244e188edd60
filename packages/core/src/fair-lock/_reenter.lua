-- An acquire by the owner that already holds the lock in the fair lock's layout (the fair lock, the
-- read-write lock's writer): `reenter()` answers it. Included once the hash was read (it sees the
-- includer's locals as they are when it runs, a grant to the caller just made included).
-- In scope: lock_key, owner, lease, claimed (g of the hash), state (the hash's o g t v f c),
-- granted (_granted.lua). The holder itself is out of the queue (a claimant was taken off by
-- grant_head, and a re-entry never waits), so neither needs the queue read.
local function reenter()
  if claimed == '1' then
    -- claiming a direct grant: it becomes a normal hold with the full lease (version 0, the grant's)
    -- The answer needs neither ZREM nor a read.
    redis.call('HDEL', lock_key, 'g')
    redis.call('PEXPIRE', lock_key, lease)
    return {1, tonumber(state[5]), tonumber(state[6]), lease, 0, 0, 0, tonumber(state[4] or '0')}
  end
  redis.call('HINCRBY', lock_key, 'c', 1)
  -- A nested acquire never shortens the lease of an outer hold, and leaves the lease version
  -- alone: it only lengthens, so no renewal ordered by the version can be undone by it.
  if redis.call('PTTL', lock_key) < lease then redis.call('PEXPIRE', lock_key, lease) end
  return granted(2)
end
