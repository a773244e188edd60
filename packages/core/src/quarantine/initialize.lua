-- Writes a restart-quarantine sentinel as "in use, no quarantine" unless one is there (a
-- quarantine under way is never cut short). It states that no holder from before exists: run it
-- at first deploy, never on every start (it would hide a data loss). See docs/guarantees.md.
-- KEYS[1] sentinel   ARGV[1] sentinel ttl ms
-- Returns {1} written, {0} already there
if redis.call('SET', KEYS[1], '0', 'PX', tonumber(ARGV[1]), 'NX') then return {1} end
return {0}
