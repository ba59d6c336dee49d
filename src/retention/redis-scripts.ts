// The Lua scripts of the Redis session state store (./redis.ts), one per operation: Redis runs each
// atomically, which is what keeps a session's limits across replicas. Keys are laid out in ./redis.ts.
import type { Redis } from 'ioredis';

/** Shared Lua: drop one snapshot, and prune the expired or vanished ones. Returns bytes freed. */
const LIB = `
local function info(v)
  local b, e = string.match(v, '^(%d+) (%d+)$')
  return tonumber(b), tonumber(e)
end
local function drop(st, ix, base, ref)
  local v = redis.call('HGET', st, 'r:' .. ref)
  local b = 0
  if v then
    b = info(v)
    redis.call('HDEL', st, 'r:' .. ref)
    redis.call('HINCRBY', st, 'sb', -b)
  end
  redis.call('ZREM', ix, ref)
  redis.call('DEL', base .. ref)
  return b
end
local function prune(st, ix, base, now)
  local freed = 0
  for _, ref in ipairs(redis.call('ZRANGE', ix, 0, -1)) do
    local v = redis.call('HGET', st, 'r:' .. ref)
    local alive = false
    if v then
      local _, e = info(v)
      alive = e > now and redis.call('EXISTS', base .. ref) == 1
    end
    if not alive then freed = freed + drop(st, ix, base, ref) end
  end
  return freed
end
local function evict(st, ix, base, keep, maxCount, maxBytes, vb, evicted)
  local freed = 0
  local sb = tonumber(redis.call('HGET', st, 'sb') or '0')
  for _, ref in ipairs(redis.call('ZRANGE', ix, 0, -1)) do
    if redis.call('ZCARD', ix) <= maxCount and sb + vb <= maxBytes then break end
    if ref ~= keep then
      local b = drop(st, ix, base, ref)
      freed = freed + b
      sb = sb - b
      table.insert(evicted, ref)
    end
  end
  return freed
end
local function tidy(st, ix, kv)
  if redis.call('ZCARD', ix) == 0 and redis.call('HLEN', kv) == 0 then redis.call('DEL', st) end
end
local function guard(st, ix, kv, at)
  redis.call('PEXPIREAT', st, at)
  redis.call('PEXPIREAT', ix, at)
  redis.call('PEXPIREAT', kv, at)
end
`;

// KEYS: st ix kv snapshotKey · ARGV: json ref now expiresAt base maxCount maxBytes guardAt
// → {'ok', bytes, freed, evicted...} | {'quota', valueBytes, freed}
const PUT = `${LIB}
local st, ix, kv, key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local json, ref, now, exp, base = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local maxCount, maxBytes = tonumber(ARGV[6]), tonumber(ARGV[7])
local freed = prune(st, ix, base, now)
local bytes = string.len(json)
local vb = tonumber(redis.call('HGET', st, 'vb') or '0')
if vb + bytes > maxBytes then
  tidy(st, ix, kv)
  return {'quota', vb, freed}
end
local seq = redis.call('HINCRBY', st, 'seq', 1)
redis.call('SET', key, json, 'PXAT', exp)
redis.call('ZADD', ix, seq, ref)
redis.call('HSET', st, 'r:' .. ref, bytes .. ' ' .. exp)
redis.call('HINCRBY', st, 'sb', bytes)
local evicted = {}
freed = freed + evict(st, ix, base, ref, maxCount, maxBytes, vb, evicted)
guard(st, ix, kv, ARGV[8])
local reply = {'ok', bytes, freed}
for _, r in ipairs(evicted) do table.insert(reply, r) end
return reply
`;

// KEYS: st ix kv · ARGV: key json now base maxCount maxBytes guardAt → {'ok', freed} | {'quota', valueBytes, freed}
const SET_VALUE = `${LIB}
local st, ix, kv = KEYS[1], KEYS[2], KEYS[3]
local k, json, now, base = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local maxCount, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6])
local freed = prune(st, ix, base, now)
local vb = tonumber(redis.call('HGET', st, 'vb') or '0')
local old = redis.call('HGET', kv, k)
if old then vb = vb - string.len(k) - string.len(old) end
vb = vb + string.len(k) + string.len(json)
if vb > maxBytes then
  tidy(st, ix, kv)
  return {'quota', vb, freed}
end
redis.call('HSET', kv, k, json)
redis.call('HSET', st, 'vb', vb)
freed = freed + evict(st, ix, base, '', maxCount, maxBytes, vb, {})
guard(st, ix, kv, ARGV[7])
return {'ok', freed}
`;

// KEYS: st ix kv snapshotKey · ARGV: ref now base wantText guardAt
// → {1, freed, text} | {1, freed} (alive, text not asked for) | {0, freed}
const GET = `${LIB}
local st, ix, kv, key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local ref, now, base = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local v = redis.call('HGET', st, 'r:' .. ref)
if not v then return {0, 0} end
local _, e = info(v)
local text = false
if e > now then
  if ARGV[4] == '1' then text = redis.call('GET', key) else text = redis.call('EXISTS', key) == 1 end
end
if not text then
  local freed = drop(st, ix, base, ref)
  tidy(st, ix, kv)
  return {0, freed}
end
guard(st, ix, kv, ARGV[5])
if text == true then return {1, 0} end
return {1, 0, text}
`;

// KEYS: st ix kv · ARGV: now base → {snapshots, snapshotBytes, valueBytes, freed}
const USAGE = `${LIB}
local st, ix, kv = KEYS[1], KEYS[2], KEYS[3]
local freed = prune(st, ix, ARGV[2], tonumber(ARGV[1]))
local reply = {redis.call('ZCARD', ix), tonumber(redis.call('HGET', st, 'sb') or '0'), tonumber(redis.call('HGET', st, 'vb') or '0'), freed}
tidy(st, ix, kv)
return reply
`;

// KEYS: st ix kv · ARGV: base → snapshot bytes released
const RELEASE = `
local st, ix, kv = KEYS[1], KEYS[2], KEYS[3]
for _, ref in ipairs(redis.call('ZRANGE', ix, 0, -1)) do redis.call('DEL', ARGV[1] .. ref) end
local sb = tonumber(redis.call('HGET', st, 'sb') or '0')
redis.call('DEL', st, ix, kv)
return sb
`;

// KEYS: ses st ix kv · ARGV: now deadline markReady → {v, t, p, r, e} | false (closed, idle-expired or never opened)
// A live session's deadline moves forward, and so does its state's, so state lives as long as its session.
const TOUCH = `
local ses = KEYS[1]
local d = redis.call('HGET', ses, 'd')
if not d then return false end
if tonumber(d) <= tonumber(ARGV[1]) then
  redis.call('DEL', ses)
  return false
end
if ARGV[3] == '1' then redis.call('HSET', ses, 'r', '1') end
redis.call('HSET', ses, 'd', ARGV[2])
for i = 1, 4 do redis.call('PEXPIREAT', KEYS[i], ARGV[2]) end
return redis.call('HMGET', ses, 'v', 't', 'p', 'r', 'e')
`;

// KEYS: cancellations hash. ARGV: field, now ms, ttl ms, cap, channel, message.
// Each field holds its own expiry (now + ttl); a full hash first drops the expired ones. Records,
// then publishes, in one script (a script inside MULTI loses ioredis's NOSCRIPT fallback).
const CANCEL = `
local now, ttl, cap = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call('HLEN', KEYS[1]) >= cap and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) <= now then redis.call('HDEL', KEYS[1], all[i]) end
  end
end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HLEN', KEYS[1]) < cap then
  redis.call('HSET', KEYS[1], ARGV[1], now + ttl)
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return redis.call('PUBLISH', ARGV[5], ARGV[6])
`;

// KEYS: ses · ARGV: now → 1 when the session is open
const ALIVE = `
local d = redis.call('HGET', KEYS[1], 'd')
if d and tonumber(d) > tonumber(ARGV[1]) then return 1 end
return 0
`;

// KEYS: the token's sessions (zset by opening time) · ARGV: the session being opened, its score,
// the cap, how many idle candidates follow, the candidates (least recently used first), then
// members found closed or expired → {1, closed…} when the session was added (closing, of the
// candidates still listed, as many as it is over the cap), or {0} when too few candidates are left.
// One step, so openings of one token on several replicas see each other's additions and removals
// and together close only what is over the cap.
const ADMIT = `
local n = tonumber(ARGV[4])
for i = 5 + n, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
local over = redis.call('ZCARD', KEYS[1]) + 1 - tonumber(ARGV[3])
local closed = {}
for i = 5, 4 + n do
  if #closed >= over then break end
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then closed[#closed + 1] = ARGV[i] end
end
if #closed < over then return {0} end
if #closed > 0 then redis.call('ZREM', KEYS[1], unpack(closed)) end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return {1, unpack(closed)}
`;

// KEYS: a session record · ARGV: the latest idle deadline at which it is still idle → 1 when it was
// (and is deleted), 0 when a request used it since it was chosen (it stays open).
const CLOSE_IDLE = `
local d = redis.call('HGET', KEYS[1], 'd')
if d and tonumber(d) > tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

type Reply = (string | number)[];
type Arg = string | number;
export interface SessionScripts {
  svcSsPut(...args: Arg[]): Promise<Reply>;
  svcSsSet(...args: Arg[]): Promise<Reply>;
  svcSsGet(...args: Arg[]): Promise<Reply>;
  svcSsUsage(...args: Arg[]): Promise<Reply>;
  svcSsRelease(...args: Arg[]): Promise<number>;
  svcSsTouch(...args: Arg[]): Promise<(string | null)[] | null>;
  svcSsAlive(...args: Arg[]): Promise<number>;
  svcSsCancel(...args: Arg[]): Promise<number>;
  svcSsAdmit(...args: Arg[]): Promise<(number | string)[]>;
  svcSsCloseIdle(...args: Arg[]): Promise<number>;
}

/** `redis` with the scripts defined as commands (ioredis loads each by SHA, falling back to EVAL). */
export function withSessionScripts(redis: Redis): Redis & SessionScripts {
  redis.defineCommand('svcSsPut', { numberOfKeys: 4, lua: PUT });
  redis.defineCommand('svcSsSet', { numberOfKeys: 3, lua: SET_VALUE });
  redis.defineCommand('svcSsGet', { numberOfKeys: 4, lua: GET });
  redis.defineCommand('svcSsUsage', { numberOfKeys: 3, lua: USAGE });
  redis.defineCommand('svcSsRelease', { numberOfKeys: 3, lua: RELEASE });
  redis.defineCommand('svcSsTouch', { numberOfKeys: 4, lua: TOUCH });
  redis.defineCommand('svcSsAlive', { numberOfKeys: 1, lua: ALIVE });
  redis.defineCommand('svcSsCancel', { numberOfKeys: 1, lua: CANCEL });
  redis.defineCommand('svcSsAdmit', { numberOfKeys: 1, lua: ADMIT });
  redis.defineCommand('svcSsCloseIdle', { numberOfKeys: 1, lua: CLOSE_IDLE });
  return redis as Redis & SessionScripts;
}
