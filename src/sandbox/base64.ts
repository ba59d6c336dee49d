// The script environment's base64 helpers, run on the host with strict validation: strings
// only, 1 MiB of raw or decoded bytes per conversion, encoded text at most 1,398,104 characters.
export const MAX_BYTES = 1024 * 1024;
export const MAX_ENCODED_CHARS = 1_398_104;

const STANDARD = /^[A-Za-z0-9+/]*$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;
const WHITESPACE = /[\t\n\f\r ]/g;

function checkEncoded(text: string, name: string): string {
  if (text.length > MAX_ENCODED_CHARS) throw new RangeError(`${name}: the encoded text is longer than ${MAX_ENCODED_CHARS} characters`);
  return text.replace(WHITESPACE, '');
}

function splitPadding(text: string, name: string): string {
  const match = /^([^=]*)(=*)$/.exec(text);
  if (!match) throw new SyntaxError(`${name}: '=' may only appear as padding at the end`);
  const [, body = '', padding = ''] = match;
  if (padding.length > 2) throw new SyntaxError(`${name}: too much padding`);
  if (padding.length && text.length % 4 !== 0) throw new SyntaxError(`${name}: padded input must be a multiple of 4 characters`);
  if (body.length % 4 === 1) throw new SyntaxError(`${name}: the input length is not valid base64`);
  return body;
}

function decodeBytes(body: string, alphabet: 'base64' | 'base64url', name: string): Buffer {
  if (Math.floor((body.length * 3) / 4) > MAX_BYTES) throw new RangeError(`${name}: the decoded data would exceed ${MAX_BYTES} bytes`);
  const bytes = Buffer.from(body, alphabet);
  // Reject non-canonical trailing bits, so one text has exactly one meaning.
  if (bytes.toString(alphabet).replace(/=+$/, '') !== body) throw new SyntaxError(`${name}: the input has non-zero trailing bits`);
  return bytes;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeBase64(text: string): string {
  const body = splitPadding(checkEncoded(text, 'decodeBase64'), 'decodeBase64');
  const standard = STANDARD.test(body);
  if (!standard && !URL_SAFE.test(body)) throw new SyntaxError('decodeBase64: the input is neither standard base64 nor base64url');
  const bytes = decodeBytes(body, standard ? 'base64' : 'base64url', 'decodeBase64');
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw new TypeError('decodeBase64: the decoded bytes are not valid UTF-8');
  }
}

export function encodeBase64(text: string, urlSafe: boolean): string {
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) {
    throw new TypeError('encodeBase64: the text has an unpaired surrogate and is not valid Unicode');
  }
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_BYTES) throw new RangeError(`encodeBase64: the text is larger than ${MAX_BYTES} bytes of UTF-8`);
  return urlSafe ? bytes.toString('base64url') : bytes.toString('base64');
}

export function atob(text: string): string {
  const body = splitPadding(checkEncoded(text, 'atob'), 'atob');
  if (!STANDARD.test(body)) throw new SyntaxError('atob: the input is not standard base64 (the URL-safe alphabet is not accepted)');
  return decodeBytes(body, 'base64', 'atob').toString('latin1');
}

/** The one synchronous host callback the isolate gets: strings in, a string out, or a thrown error. */
export function base64Helper(op: unknown, text: unknown, urlSafe: unknown): string {
  if (typeof text !== 'string') throw new TypeError(`${String(op)}: the argument must be a string`);
  if (op === 'decode') return decodeBase64(text);
  if (op === 'encode') return encodeBase64(text, urlSafe === true);
  if (op === 'atob') return atob(text);
  throw new TypeError('unknown base64 operation');
}
