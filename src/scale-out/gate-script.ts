/**
 * One account's rate budget in Redis, read and updated atomically by one Lua script (a Lua
 * script rather than rate-limiter-flexible: the budget is not just "N points per window" but
 * the same policy as the in-process RateGate — GCRA pacing with a small catch-up, a
 * sliding-window log over window + margin, an epoch-aligned day count, the service's own
 * X-RateLimit-* views and 429 holds — and all of it must be decided in one step; a library
 * of point counters would need several round trips, losing atomicity between them).
 *
 * Times come from Redis (TIME), so machines whose clocks differ a little still agree on the
 * schedule; the service's resets travel as durations from "now" and become Redis times here.
 *
 * KEYS: 1 state hash, 2 grant log (sorted set, score = grant time), 3 live processes (sorted set).
 * ARGV: 1 op, 2 minuteMs, 3 dayMs, 4 marginMs, 5 expected perMinute, 6 expected perDay (the
 * tier's, until the service states the account's), 7 ceiling perMinute, 8 ceiling perDay ('' for
 * none), 9… per op. The service's stated limits are kept here for every process (spm, spd).
 * Every op answers { code, a, b, then the snapshot: perMinute, minuteRemaining, resetsInMs,
 * perDay, dayRemaining, dayResetsInMs, stated perMinute, stated perDay } with -1 for "unknown".
 */
export const GATE_SCRIPT = `
local function num(v) if v == false or v == nil or v == '' then return nil end return tonumber(v) end
local function mind(a, b) if a == nil then return b end if b == nil then return a end return math.min(a, b) end
local function str(v) if v == nil then return '' end return string.format('%.3f', v) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local S, LOG, PEERS = KEYS[1], KEYS[2], KEYS[3]
local op = ARGV[1]
local minuteMs, dayMs, marginMs = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local window = minuteMs + marginMs
local f = redis.call('HMGET', S, 'spm', 'spd', 'tat', 'last', 'seq', 'blocked', 'dw', 'dc', 'smr', 'smt', 'sms', 'sdr', 'sdt', 'sds', 'answered', 'probe')
local spm, spd = num(f[1]), num(f[2])
local capm, capd = num(ARGV[7]), num(ARGV[8])
-- The service's stated limit is the account's (above or below the tier's); a caller's ceiling is never exceeded.
local pm = mind(spm or num(ARGV[5]), capm)
local pd = mind(spd or num(ARGV[6]), capd)
local tat = num(f[3]) or -1e15
local last = num(f[4]) or -1e15
local seq = num(f[5]) or 0
local blocked = num(f[6]) or 0
local dw = num(f[7]) or -1
local dc = num(f[8]) or 0
local smr, smt, sms = num(f[9]), num(f[10]), num(f[11])
local sdr, sdt, sds = num(f[12]), num(f[13]), num(f[14])
local answered = f[15] == '1'
local probe = num(f[16]) or 0

local w = math.floor(now / dayMs)
if w ~= dw then dw = w; dc = 0 end
redis.call('ZREMRANGEBYSCORE', LOG, '-inf', now - window)

local spacing = 0
local catch = 1
if pm then spacing = window / pm; catch = math.max(1, math.min(15, math.floor(pm / 4))) end

local function dayBudget()
  local mine = nil
  if pd then mine = pd - dc end
  if sdr and now < sdt then return mind(mine, sdr - (seq - sds)), sdt end
  return mine, (dw + 1) * dayMs
end

local function save()
  redis.call('HSET', S, 'spm', str(spm), 'spd', str(spd), 'tat', str(tat), 'last', str(last), 'seq', seq, 'blocked', str(blocked),
    'dw', dw, 'dc', dc, 'smr', str(smr), 'smt', str(smt), 'sms', str(sms), 'sdr', str(sdr), 'sdt', str(sdt), 'sds', str(sds),
    'answered', answered and '1' or '0', 'probe', str(probe))
  -- An account nobody uses any more leaves nothing behind.
  local ttl = math.floor(dayMs + 2 * window)
  redis.call('PEXPIRE', S, ttl)
  redis.call('PEXPIRE', LOG, ttl)
end

local function snapshot(code, a, b)
  local n = redis.call('ZCARD', LOG)
  local mr = -1
  local resetsIn = 0
  if pm then mr = math.max(0, pm - n) end
  if n > 0 then
    local first = redis.call('ZRANGE', LOG, 0, 0, 'WITHSCORES')
    resetsIn = tonumber(first[2]) + window - now
  end
  if smr and now < smt then
    local est = math.max(0, smr - (seq - sms))
    if mr < 0 then mr = est else mr = math.min(mr, est) end
    if est == 0 then resetsIn = math.max(resetsIn, smt - now) end
  end
  local dr, dreset = dayBudget()
  local drOut = -1
  if dr then drOut = math.max(0, dr) end
  return { code, a, b, pm or -1, mr, math.ceil(resetsIn), pd or -1, drOut, math.ceil(dreset - now), spm or -1, spd or -1 }
end

-- The service's report of a budget, kept when it is for a later window or, within one window
-- (resets within a margin of each other), when it reflects more grants.
local function newer(r, rt, rs, nr, nt, ns)
  if r == nil or nt > rt + marginMs then return nr, nt, ns end
  if nt < rt - marginMs then return r, rt, rs end
  if ns >= rs then return nr, nt, ns end
  return r, rt, rs
end

if op == 'acquire' then
  local idle, pid = ARGV[9] == '1', ARGV[10]
  redis.call('ZADD', PEERS, now, pid)
  local dr, dreset = dayBudget()
  if dr and dr <= 0 then save(); return snapshot(2, math.ceil(dreset - now), 0) end
  local at = math.max(now, blocked)
  if pm == nil and not answered and probe > now then at = math.max(at, probe) end
  if pm then
    at = math.max(at, tat - (catch - 1) * spacing, last + spacing / 2)
    local n = redis.call('ZCARD', LOG)
    if n >= pm then
      local e = redis.call('ZRANGE', LOG, n - pm, n - pm, 'WITHSCORES')
      at = math.max(at, tonumber(e[2]) + window)
    end
  end
  if smr and now < smt and smr - (seq - sms) <= 0 then at = math.max(at, smt + marginMs) end
  if at > now then save(); return snapshot(0, math.ceil(at - now), 0) end
  seq = seq + 1
  -- After idling the schedule restarts with no credit (as in RateGate.grant).
  if idle then tat = now + (catch - 1) * spacing + spacing else tat = math.max(tat, now) + spacing end
  last = now
  redis.call('ZADD', LOG, now, seq)
  if pm then redis.call('ZREMRANGEBYRANK', LOG, 0, -(pm + 1)) end
  dc = dc + 1
  -- Limits unknown: one request goes first, its headers will say them.
  if pm == nil and not answered then probe = now + window end
  save()
  return snapshot(1, seq, now)
elseif op == 'observe' then
  local s = num(ARGV[9]) or seq
  if ARGV[10] == '1' then answered = true; probe = 0 end
  local ml, mrem, mreset = num(ARGV[11]), num(ARGV[12]), num(ARGV[13])
  local dl, drem, dreset = num(ARGV[14]), num(ARGV[15]), num(ARGV[16])
  if ml and ml > 0 then spm = ml; pm = mind(spm, capm) end
  if dl and dl > 0 then spd = dl; pd = mind(spd, capd) end
  if mrem and mreset then smr, smt, sms = newer(smr, smt, sms, mrem, now + mreset, s) end
  if drem and dreset then sdr, sdt, sds = newer(sdr, sdt, sds, drem, now + dreset, s) end
  save()
  return snapshot(1, 0, 0)
elseif op == 'hold' then
  blocked = math.max(blocked, now + tonumber(ARGV[9]))
  save()
  return snapshot(1, 0, 0)
elseif op == 'refund' then
  if math.floor(tonumber(ARGV[9]) / dayMs) == dw and dc > 0 then dc = dc - 1 end
  save()
  return snapshot(1, 0, 0)
elseif op == 'spent' then
  dc = dc + tonumber(ARGV[9])
  save()
  return snapshot(1, 0, 0)
elseif op == 'beat' then
  redis.call('ZADD', PEERS, now, ARGV[9])
  redis.call('ZREMRANGEBYSCORE', PEERS, '-inf', now - tonumber(ARGV[10]))
  redis.call('PEXPIRE', PEERS, math.floor(dayMs + 2 * window))
  local peers = redis.call('ZCARD', PEERS)
  save()
  return snapshot(1, peers, 0)
end
save()
return snapshot(1, 0, 0)
`;
