-- Every answer is recorded (busy, refusals, "not held"), until the deadline plus the margin:
-- long enough for a settle sent once the deadline passed to find it, and no longer.
local __parts = {}
for i, v in ipairs(__answer) do __parts[i] = string.format('%.0f', v) end
redis.call('SET', op_key, table.concat(__parts, ','), 'PX', math.max(op_deadline + op_margin - now_ms, 1))
__answer[#__answer + 1] = quarantine_epoch
__answer[#__answer + 1] = quarantine_rolled_back
__answer[#__answer + 1] = now_ms
return __answer
