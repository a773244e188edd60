-- Server time, the only clock scripts trust. Redis >= 5 replicates script effects, so reading
-- TIME before writing is allowed (and Upstash runs scripts the same way).
local __time = redis.call('TIME')
local now_us = tonumber(__time[1]) * 1000000 + tonumber(__time[2])
local now_ms = math.floor(now_us / 1000)
