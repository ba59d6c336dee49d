// The script environment, evaluated inside each fresh context before the script. It closes over
// the host bridges ($0–$6) so the script never sees them, and exposes exactly the script's
// functions (docs/architecture.md, "The execute tool"): call, sleep, setTimeout, clearTimeout,
// session.{get,set,page}, decodeBase64, encodeBase64, atob.
export const bridgeSource = String.raw`
const [callRef, getRef, setRef, pageRef, sleepRef, cancelRef, b64] = [$0, $1, $2, $3, $4, $5, $6];
const stringify = JSON.stringify;
const parse = JSON.parse;
const freeze = Object.freeze;
const defineProperty = Object.defineProperty;
// Bridge calls started: the result carries the count, and the host hands the result on only once
// that many have reached it (arrivals, ./bridges.ts), so one started just before finishing is never dropped.
let asked = 0;
const ask = (ref, args) => {
  const answer = ref.apply(undefined, args, { arguments: { copy: true }, result: { promise: true, copy: true } });
  asked++;
  return answer;
};
const read = (text) => (text === undefined ? undefined : parse(text));

// Values cross to the host as JSON text, and JSON.stringify alone would change them silently: a
// function, symbol or undefined array item becomes null or disappears, NaN and Infinity become
// null, a Map or a forgotten Promise becomes {}. jsonText refuses each of those with a TypeError
// naming where it is (call(): params.filter.since is a function, which is not JSON), before anything
// is sent. As in JSON.stringify: toJSON is honoured (a Date becomes its ISO string), and an object
// member that is undefined is left out (an optional parameter not given).
// Builtins are captured now, before any script runs, so a script cannot change what is checked.
const apply = Reflect.apply;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const isFiniteNumber = Number.isFinite;
const isPrototypeOf = Object.prototype.isPrototypeOf;
const regexpTest = RegExp.prototype.test;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const NOT_JSON_OBJECTS = [
  [Promise.prototype, 'a Promise (a missing await?)'],
  [Map.prototype, 'a Map'],
  [Set.prototype, 'a Set'],
  [WeakMap.prototype, 'a WeakMap'],
  [WeakSet.prototype, 'a WeakSet'],
  [WeakRef.prototype, 'a WeakRef'],
  [RegExp.prototype, 'a RegExp'],
  [Error.prototype, 'an Error'],
  [ArrayBuffer.prototype, 'an ArrayBuffer'],
];
/** What a value is when JSON cannot hold it (undefined when it can); inArray: an array item or the whole argument. */
const notJson = (value, inArray) => {
  switch (typeof value) {
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return 'a BigInt';
    case 'number':
      return isFiniteNumber(value) ? undefined : value !== value ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
    case 'undefined':
      return inArray ? 'undefined' : undefined;
    case 'object':
      if (value === null) return undefined;
      if (isView(value)) return 'a typed array or DataView';
      for (let i = 0; i < NOT_JSON_OBJECTS.length; i++) {
        const entry = NOT_JSON_OBJECTS[i];
        if (apply(isPrototypeOf, entry[0], [value])) return entry[1];
      }
      return undefined;
    default:
      return undefined;
  }
};
/**
 * The argument as JSON text, or undefined when it is undefined (not given). where prefixes the
 * error ('call(): '), what names the argument ('params'). No array methods or iterators are used
 * on the way: a script may have replaced them.
 */
const jsonText = (value, where, what) => {
  if (value === undefined) return undefined;
  // Only the current path is kept (JSON.stringify walks depth first): objects[i] is the object or
  // array i levels below the argument (objects[0] is the argument), keys[i] its key in objects[i - 1].
  // Memory follows the depth, never the size: a script's 300,000-row value must not double in its
  // isolate just to be checked. Null-prototype records: a script's Array.prototype setters never run.
  const objects = { __proto__: null };
  const keys = { __proto__: null };
  let depth = 0;
  let first = true;
  let refusal;
  const step = (holder, key) => (isArray(holder) ? '[' + key + ']' : apply(regexpTest, IDENTIFIER, [key]) ? '.' + key : '[' + stringify(key) + ']');
  /** The path of objects[level - 1], then of key in it when given. */
  const path = (level, key) => {
    let text = what;
    for (let i = 1; i < level; i++) text += step(objects[i - 1], keys[i]);
    return key === undefined || level === 0 ? text : text + step(objects[level - 1], key);
  };
  const refuse = (level, key, kind) => {
    refusal = new TypeError(where + path(level, key) + ' is ' + kind + ', which is not JSON');
    throw refusal;
  };
  function replacer(key, item) {
    if (first) first = false; // the holder is JSON.stringify's wrapper: the item is the argument
    else while (depth > 0 && objects[depth - 1] !== this) depth--; // back up to this item's holder
    const kind = notJson(item, depth === 0 || isArray(this));
    if (kind) refuse(depth, key, kind);
    if (item !== null && typeof item === 'object') {
      for (let i = 0; i < depth; i++) if (objects[i] === item) refuse(depth, key, 'a circular reference to ' + path(i + 1));
      objects[depth] = item;
      keys[depth] = key;
      depth++;
    }
    return item;
  }
  try {
    return stringify(value, replacer);
  } catch (e) {
    if (e === refusal) throw e;
    throw new TypeError(where + what + ' cannot be turned into JSON (' + String(e && e.message) + ')');
  }
};

// Engine refusals (unknown or forbidden operation, invalid input or pagination, an unavailable
// snapshot, a row too large for the page) reject the promise with a coded error.
class EngineRefusal extends Error {
  constructor(refusal) {
    super(refusal.message);
    this.name = 'EngineRefusal';
    this.code = refusal.code;
    this.details = refusal.details;
    this.refusal = refusal.id;
  }
}
const unwrap = (answer) => {
  if (answer.refused) throw new EngineRefusal(answer.refused);
  return answer.value;
};

async function call(...args) {
  if (args.length < 1 || args.length > 3) throw new TypeError('call(operationId, params[, options]) takes one to three arguments; got ' + args.length);
  // Any operationId but a string is the host's refusal (ENGINE_INVALID_INPUT, "must be a non-empty string").
  const text = [typeof args[0] === 'string' ? stringify(args[0]) : 'null', jsonText(args[1], 'call(): ', 'params'), jsonText(args[2], 'call(): ', 'options')];
  return unwrap(read(await ask(callRef, text)));
}

const MAX_DELAY = 2147483647;
const MAX_TIMERS = 1000;
const MAX_SLEEPS = 1000;
const pending = new Map();
let sleeping = 0;
let nextTimer = 0;
let timerError;
const delayOf = (ms, name) => {
  if (ms === undefined) return 0;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_DELAY) {
    throw new RangeError(name + ': the delay must be a finite number of milliseconds from 0 to ' + MAX_DELAY);
  }
  return Math.floor(ms);
};
function setTimeout(fn, ms, ...args) {
  if (typeof fn !== 'function') throw new TypeError('setTimeout: the first argument must be a function');
  const delay = delayOf(ms, 'setTimeout');
  if (pending.size >= MAX_TIMERS) throw new RangeError('setTimeout: at most ' + MAX_TIMERS + ' timers may be pending');
  const id = ++nextTimer;
  pending.set(id, { fn, args });
  sleepRef.apply(undefined, [delay, id], { result: { promise: true } }).then(() => {
    const timer = pending.get(id);
    if (!timer) return;
    pending.delete(id);
    try {
      timer.fn(...timer.args);
    } catch (e) {
      timerError = timerError || e;
    }
  });
  return id;
}
function clearTimeout(id) {
  if (pending.delete(id)) cancelRef.applyIgnored(undefined, [id]);
}
async function sleep(ms) {
  const delay = delayOf(ms, 'sleep');
  if (sleeping >= MAX_SLEEPS) throw new RangeError('sleep: at most ' + MAX_SLEEPS + ' sleeps may be pending (await them)');
  sleeping++;
  try {
    await sleepRef.apply(undefined, [delay, 0], { result: { promise: true } });
  } finally {
    sleeping--;
  }
}

const session = freeze({
  get(...args) {
    if (args.length !== 1) throw new TypeError('session.get takes exactly one argument (a string key); got ' + args.length);
    if (typeof args[0] !== 'string') throw new TypeError('session.get: the key must be a string');
    return ask(getRef, [stringify(args)]).then(read).then(unwrap);
  },
  set(...args) {
    if (args.length !== 2) throw new TypeError('session.set takes exactly two arguments (key, value); got ' + args.length);
    if (typeof args[0] !== 'string') throw new TypeError('session.set: the key must be a string');
    if (args[1] === undefined) throw new TypeError('session.set: value is undefined, which is not JSON (store null to keep "nothing")');
    return ask(setRef, [stringify([args[0], jsonText(args[1], 'session.set: ', 'value')])]).then(read).then(unwrap).then(() => undefined);
  },
  page(...args) {
    if (args.length < 1 || args.length > 2) throw new TypeError('session.page takes (result_ref, { path?, fields?, offset? })');
    if (typeof args[0] !== 'string') throw new TypeError('session.page: result_ref must be a string');
    const options = jsonText(args[1], 'session.page: ', 'options');
    return ask(pageRef, ['[' + stringify(args[0]) + ',' + (options === undefined ? '{}' : options) + ']']).then(read).then(unwrap);
  },
});

const stringOnly = (name, value) => {
  if (typeof value !== 'string') throw new TypeError(name + ': the argument must be a string');
};
const ERRORS = { RangeError, SyntaxError, TypeError };
// The host's error carries a host stack (file paths): the script gets a new one with its message only.
const base64 = (op, text, urlSafe) => {
  try {
    return b64(op, text, urlSafe);
  } catch (e) {
    const Kind = ERRORS[e && e.name] || Error;
    throw new Kind(String(e && e.message));
  }
};
function decodeBase64(text) {
  stringOnly('decodeBase64', text);
  return base64('decode', text, false);
}
function encodeBase64(text, urlSafe = false) {
  stringOnly('encodeBase64', text);
  if (typeof urlSafe !== 'boolean') throw new TypeError('encodeBase64: urlSafe must be a boolean');
  return base64('encode', text, urlSafe);
}
function atob(text) {
  stringOnly('atob', text);
  return base64('atob', text, false);
}

const api = { call, sleep, setTimeout, clearTimeout, session, decodeBase64, encodeBase64, atob };
for (const [name, value] of Object.entries(api)) {
  defineProperty(globalThis, name, { value: typeof value === 'function' ? freeze(value) : value, writable: false, configurable: false, enumerable: false });
}
// Nothing else: no WebAssembly or SharedArrayBuffer (their memory is not bounded by the heap limit).
for (const name of ['WebAssembly', 'SharedArrayBuffer']) delete globalThis[name];

defineProperty(globalThis, '__svc_finish', {
  value: async (main, resultCap) => {
    try {
      const value = await main();
      if (timerError) throw timerError;
      pending.clear();
      // Refused like call() params: a forgotten await or a Map would otherwise come back as {}.
      const json = jsonText(value, '', 'the returned value');
      // Over the result cap in characters is over it in UTF-8 bytes too: refused here, never copied out.
      if (json !== undefined && json.length > resultCap) return stringify({ __proto__: null, ok: true, tooLarge: true, asked });
      // Null-prototype envelopes: a script that polluted Object.prototype (toJSON, say) cannot reshape them.
      return stringify({ __proto__: null, ok: true, json, asked });
    } catch (e) {
      pending.clear();
      const err = e !== null && typeof e === 'object' ? e : { name: 'Error', message: String(e) };
      let refusal;
      try {
        refusal = err.name === 'EngineRefusal' && Number.isInteger(err.refusal) ? err.refusal : undefined;
      } catch {
        refusal = undefined;
      }
      return stringify({
        __proto__: null,
        ok: false,
        asked,
        error: {
          __proto__: null,
          name: String(err.name ?? 'Error'),
          message: String(err.message ?? e),
          stack: typeof err.stack === 'string' ? err.stack : undefined,
          refusal,
        },
      });
    }
  },
  writable: false,
  configurable: false,
  enumerable: false,
});
`;
