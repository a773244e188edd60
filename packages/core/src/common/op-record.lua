-- Operation records make a mutation exactly-once over a retrying HTTP path: the first run stores
-- its answer under the operation id; a repeat returns it and changes nothing. 'x' marks an
-- operation abandoned by its caller, so a late copy of it must not apply.
local function op_get(op_key)
  local raw = redis.call('GET', op_key)
  if not raw then return nil end
  if raw == 'x' then return 'x' end
  local out = {}
  for part in string.gmatch(raw, '[^,]+') do out[#out + 1] = tonumber(part) end
  return out
end

local function op_put(op_key, answer, ttl_ms)
  local parts = {}
  for i, v in ipairs(answer) do parts[i] = string.format('%.0f', v) end
  redis.call('SET', op_key, table.concat(parts, ','), 'PX', ttl_ms)
  return answer
end
