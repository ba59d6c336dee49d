// Whether a provider's body is one JSON text, checked over its bytes without building anything:
// the REST and gRPC answers splice the body into their envelope as it came, so the objects
// JSON.parse would build are needed only when something reads the data (pagination, a Unified
// step, an MCP script), and are then parsed on demand (./provider-answer.ts).
//
// Sound, not complete: true only when JSON.parse accepts the bytes' UTF-8 text (RFC 8259's grammar;
// bytes past 0x7F only inside strings, where decoding's U+FFFD keeps the text valid). A text nested
// deeper than MAX_DEPTH gets false, and its caller parses it as before.

const MAX_DEPTH = 512;

/** The characters after '\\' that JSON allows, 'u' apart. */
const SHORT_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SHORT_ESCAPE[c.charCodeAt(0)] = 1;

/** 1 for the bytes a string holds as they are: all but control characters, '"' and '\\' (one load per byte, not three tests). */
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c !== 0x22 && c !== 0x5c ? 1 : 0));

const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/** The closing byte of each open container ('}' or ']'): a check is synchronous, so one stack serves all. */
const closers = new Uint8Array(MAX_DEPTH);

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

function skipSpace(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** From just past an opening '"': the index past its closing one, or -1. */
function string(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i++]!;
    if (PLAIN[c] === 1) continue;
    if (c === 0x22) return i;
    if (c !== 0x5c || i >= n) return -1; // a control character, or '\\' at the end
    const e = b[i++]!;
    if (e === 0x75) {
      if (i + 4 > n || !HEX[b[i]!] || !HEX[b[i + 1]!] || !HEX[b[i + 2]!] || !HEX[b[i + 3]!]) return -1;
      i += 4;
    } else if (SHORT_ESCAPE[e] === 0) return -1;
  }
  return -1;
}

/** At a key's opening '"': the index past the ':' after it, or -1. */
function key(b: Uint8Array, i: number, n: number): number {
  if (b[i] !== 0x22) return -1;
  i = string(b, i + 1, n);
  if (i < 0) return -1;
  i = skipSpace(b, i, n);
  return b[i] === 0x3a ? i + 1 : -1;
}

/** At a number's first byte: the index past it, or -1. */
function number(b: Uint8Array, i: number): number {
  if (b[i] === 0x2d) i++;
  const first = b[i];
  if (first === 0x30) i++;
  else if (first !== undefined && first >= 0x31 && first <= 0x39) while (isDigit(b[++i]));
  else return -1;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i])) return -1;
    while (isDigit(b[++i]));
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    if (b[++i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[++i]));
  }
  return i;
}

/** At a literal's first byte: the index past `word`, or -1. */
function literal(b: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/** True only when `bytes`, read as UTF-8, is a text JSON.parse accepts (see the top of this file). */
export function isJsonText(bytes: Uint8Array): boolean {
  // A plain Uint8Array view: element reads on a Buffer (a subclass) were ~1.5× slower (measured).
  const b = Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const n = b.length;
  let i = 0;
  let depth = 0;
  for (;;) {
    // A value.
    i = skipSpace(b, i, n);
    const c = b[i];
    if (c === 0x7b || c === 0x5b) {
      const close = c + 2; // '}' or ']'
      i = skipSpace(b, i + 1, n);
      if (b[i] === close) i++;
      else {
        if (depth === MAX_DEPTH) return false;
        closers[depth++] = close;
        if (close === 0x7d && (i = key(b, i, n)) < 0) return false;
        continue;
      }
    } else if (c === 0x22) i = string(b, i + 1, n);
    else if (c === 0x74) i = literal(b, i, 'true');
    else if (c === 0x66) i = literal(b, i, 'false');
    else if (c === 0x6e) i = literal(b, i, 'null');
    else i = number(b, i);
    if (i < 0) return false;
    // After a value: the containers it closes, then a ',' before the next value (and key), or the end.
    for (;;) {
      i = skipSpace(b, i, n);
      if (depth === 0) return i === n;
      const d = b[i++];
      if (d === 0x2c) {
        if (closers[depth - 1] === 0x7d && (i = key(b, skipSpace(b, i, n), n)) < 0) return false;
        break;
      }
      if (d !== closers[depth - 1]) return false;
      depth--;
    }
  }
}
