__answer[#__answer + 1] = now_ms
return __answer
