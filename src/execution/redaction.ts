// What a provider's answer must never hand back: the secret it was sent, in any spelling. A provider
// that echoes a credential (in an error above all) must not pass it to the caller. Redacted, with
// letters in either case:
//   - the secret (and an HTTP Basic secret's password) percent-encoded, JSON-escaped or as HTML
//     character references (characterPattern);
//   - its base64 and base64url, at any offset in the encoded text, so `user:key`, `key:` and any
//     other wrapping are caught (base64Cores), percent-encoded too;
//   - any run of RUN_MIN or more of its characters: a truncated copy.
// The usual answer holds none of them and is let through after one pass over its bytes (Prefilter).

/** A truncated copy this long or longer is redacted. */
export const RUN_MIN = 12;
/** The text put where a secret was. */
const REDACTED = '[redacted]';

/** Runs of characters spelled the same in URLs, JSON and HTML. */
const PLAIN_RUN = /[A-Za-z0-9_.-]+/g;
const BASE64_CHAR = '[A-Za-z0-9+/_-]';

const hexDigit = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
/** `n` in hex as a pattern that takes either case of each digit. */
const hexOf = (n: number, width: number) => [...n.toString(16).padStart(width, '0')].map(hexDigit).join('');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** JSON's two-character escapes, as patterns. */
const JSON_SHORT: Record<string, string> = { '"': String.raw`\\"`, '\\': String.raw`\\\\`, '/': String.raw`\\/`, '\b': String.raw`\\b`, '\f': String.raw`\\f`, '\n': String.raw`\\n`, '\r': String.raw`\\r`, '\t': String.raw`\\t` };
const HTML_NAMED: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;' };

/**
 * Every way one character of a key may come back from a provider: as it is, percent-encoded
 * (either hex case, UTF-8 bytes; '+' for a space), JSON-escaped (short escapes, \uXXXX in either
 * case, surrogate pairs) or as an HTML character reference. Encoders differ in which characters
 * they escape (.NET escapes '+', PHP '/', Go's PathEscape leaves '+' and '='), so each character
 * of the key is matched in any of its spellings independently of the others. The pattern is
 * compiled case-insensitive, so a letter also matches its other case.
 */
function characterPattern(c: string, escapedAlnum = false): string {
  // Letters and digits as themselves, or (escapedAlnum) also as JSON's \u00XX.
  if (/[A-Za-z0-9]/.test(c)) return escapedAlnum ? `(?:${c}|\\\\u00${hexOf(c.charCodeAt(0), 2)}|\\\\u00${hexOf(c.toLowerCase() === c ? c.toUpperCase().charCodeAt(0) : c.toLowerCase().charCodeAt(0), 2)})` : c;
  const code = c.codePointAt(0)!;
  const forms = new Set<string>([escapeRegExp(c)]);
  forms.add([...Buffer.from(c, 'utf8')].map((b) => `%${hexOf(b, 2)}`).join(''));
  if (c === ' ') forms.add(String.raw`\+`);
  const units = code > 0xffff ? [0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff)] : [code];
  forms.add(units.map((u) => String.raw`\\u` + hexOf(u, 4)).join(''));
  if (JSON_SHORT[c]) forms.add(JSON_SHORT[c]);
  forms.add(`&#0*${code};`);
  forms.add(`&#[xX]0*${hexOf(code, 1)};`);
  if (HTML_NAMED[c]) forms.add(HTML_NAMED[c]);
  return `(?:${[...forms].join('|')})`;
}

/** A base64 character in any spelling, and its base64url twin ('+' is '-', '/' is '_'). */
function base64CharPattern(c: string, escapedAlnum: boolean): string {
  if (c === '+') return `(?:${characterPattern('+', escapedAlnum)}|-)`;
  if (c === '/') return `(?:${characterPattern('/', escapedAlnum)}|_)`;
  return characterPattern(c, escapedAlnum);
}

/**
 * The base64 text that encodes `value` wherever it sits in a longer encoded string (`user:value`,
 * `value:`, a JSON document): base64 encodes 3 bytes at a time, so once the value's first whole
 * group starts, the characters are fixed by the value alone. One core per offset modulo 3; the
 * characters around a core also encode neighbouring bytes and are matched loosely (BASE64_CHAR).
 * Cores shorter than RUN_MIN characters would match unrelated text and are left out, except the
 * value's own encoding from its first byte.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores = new Set<string>();
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const core = bytes.subarray(skip, skip + whole).toString('base64');
    if (core.length >= RUN_MIN || skip === 0) cores.add(core);
  }
  return [...cores];
}

/** ASCII letters folded to lower case; every other byte as it is. */
const FOLD = new Uint8Array(256).map((_, i) => (i >= 65 && i <= 90 ? i + 32 : i));
const foldCode = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * A pass over the body's bytes that says when it cannot hold any form of the secret: each form has
 * a run of plain characters (PLAIN_RUN, spelled alike everywhere) that any copy of it contains,
 * letters in either case, so a copy leaves a chain of that run's letter pairs (bigrams) in the
 * body. The body is searched in full only when it has a chain as long as the shortest such run.
 * Bodies with JSON \u escapes or in another charset (which can spell even letters otherwise) are
 * always searched in full.
 */
class Prefilter {
  private readonly pairs = new Uint32Array(65536 / 32);
  /** Consecutive pairs a copy leaves at least; 0: no run to rely on, every body is searched. */
  private readonly chain: number;

  constructor(anchors: readonly string[]) {
    let shortest = Infinity;
    for (const anchor of anchors) {
      const runs = anchor.match(PLAIN_RUN) ?? [];
      const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
      shortest = Math.min(shortest, Math.min(longest.length, RUN_MIN));
      const bytes = Buffer.from(anchor, 'utf8');
      for (let i = 1; i < bytes.length; i++) {
        const pair = (FOLD[bytes[i - 1]!]! << 8) | FOLD[bytes[i]!]!;
        this.pairs[pair >>> 5]! |= 1 << (pair & 31);
      }
    }
    this.chain = shortest >= 4 && shortest !== Infinity ? shortest - 1 : 0;
  }

  /** Whether the pair of bytes ending at `i` is a pair of some form's characters. */
  private pairAt(raw: Buffer, i: number): boolean {
    const pair = (FOLD[raw[i - 1]!]! << 8) | FOLD[raw[i]!]!;
    return ((this.pairs[pair >>> 5]! >>> (pair & 31)) & 1) === 1;
  }

  /**
   * Whether the body may hold a copy (always true when no run is long enough to rely on). A chain
   * of `chain` pairs covers one of every `chain` consecutive positions, so only those are looked at
   * first, and a chain is measured only around one that is a pair: about one byte in `chain` is read.
   */
  mayHold(raw: Buffer): boolean {
    const chain = this.chain;
    if (chain === 0) return true;
    for (let i = chain; i < raw.length; i += chain) {
      if (!this.pairAt(raw, i)) continue;
      let first = i;
      while (first > 1 && this.pairAt(raw, first - 1)) first--;
      let last = i;
      while (last + 1 < raw.length && this.pairAt(raw, last + 1)) last++;
      if (last - first + 1 >= chain) return true;
      i = last; // the next look is `chain` past this run's end
    }
    return false;
  }
}

const charsets = new Map<string, string | undefined>();
/**
 * The body's declared charset when it is not UTF-8 (e.g. UTF-16) and TextDecoder knows it: the key is
 * then searched for in characters, not bytes. Providers send the same few Content-Types: remembered.
 */
function declaredCharset(contentType: string | string[] | undefined): string | undefined {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!type) return undefined;
  if (charsets.has(type)) return charsets.get(type);
  const name = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
  let charset: string | undefined;
  if (name && name !== 'utf-8' && name !== 'utf8' && name !== 'us-ascii') {
    try {
      charset = new TextDecoder(name).encoding;
    } catch {
      charset = undefined; // a charset TextDecoder does not know: read as UTF-8
    }
  }
  if (charsets.size >= 64) charsets.clear();
  charsets.set(type, charset);
  return charset;
}

const JSON_UNICODE_ESCAPE = Buffer.from('\\u');

/** Redacts one secret's forms from provider answers; made once per secret (redactorFor). */
export class Redactor {
  /** Forms matched in every spelling: the secret (and a Basic secret's password). */
  private readonly whole: readonly string[];
  /** The secret proper, whose runs of RUN_MIN or more characters are redacted (a Basic secret's password). */
  private readonly key: string;
  private readonly prefilter: Prefilter;
  private spelled: { plain: RegExp; anySpelling: RegExp } | undefined;
  private runs: { anchors: RegExp; at: Map<string, number[]>; folded: string } | null | undefined;

  constructor(whole: readonly string[], key: string) {
    this.whole = whole;
    this.key = key;
    const cores = whole.flatMap(base64Cores);
    this.prefilter = new Prefilter([...whole, ...cores, ...cores.map((c) => Buffer.from(c, 'base64').toString('base64url'))]);
  }

  /**
   * The body with every form of the secret replaced by `[redacted]`. A body in another charset is
   * decoded first and comes back as UTF-8.
   */
  redact(raw: Buffer, contentType: string | string[] | undefined): Buffer {
    const charset = declaredCharset(contentType);
    // JSON's \uXXXX can spell even letters and digits: a body with such escapes gets the full search.
    const plainBody = charset === undefined && !raw.includes(JSON_UNICODE_ESCAPE);
    if (plainBody && !this.prefilter.mayHold(raw)) return raw;
    const text = charset === undefined ? raw.toString('utf8') : new TextDecoder(charset).decode(raw);
    const spelled = this.spelledPatterns();
    const search = plainBody ? spelled.plain : spelled.anySpelling;
    const out = this.redactRuns(text.replace(search, REDACTED));
    if (charset === undefined && out === text) return raw;
    return Buffer.from(out);
  }

  /** One pattern over every spelled form and base64 core, longest first so a whole copy wins over a part. */
  private spelledPatterns() {
    if (!this.spelled) {
      const build = (escapedAlnum: boolean) => {
        const alternatives: { length: number; source: string }[] = [];
        for (const form of this.whole) alternatives.push({ length: form.length, source: [...form].map((c) => characterPattern(c, escapedAlnum)).join('') });
        for (const core of new Set(this.whole.flatMap(base64Cores))) {
          const source = [...core].map((c) => base64CharPattern(c, escapedAlnum)).join('');
          alternatives.push({ length: core.length, source: `${BASE64_CHAR}{0,3}${source}${BASE64_CHAR}{0,3}` });
        }
        alternatives.sort((a, b) => b.length - a.length);
        return new RegExp(alternatives.map((a) => a.source).join('|'), 'gi');
      };
      this.spelled = { plain: build(false), anySpelling: build(true) };
    }
    return this.spelled;
  }

  /**
   * Replaces each run of RUN_MIN or more characters of the key (letters in either case): any such
   * run holds one of the key's RUN_MIN/2-character pieces that start at multiples of RUN_MIN/2, so
   * those are searched for and each hit is grown both ways along the key as far as the text follows it.
   */
  private redactRuns(text: string): string {
    if (this.runs === undefined) {
      const key = this.key;
      if ([...key].length <= RUN_MIN || key.length !== [...key].length) {
        // A key no longer than a run is redacted whole (spelledPatterns). One outside the BMP is too,
        // but its runs are not searched: that keeps the growing below to UTF-16 units that are characters.
        this.runs = null;
      } else {
        const folded = [...key].map((c) => String.fromCharCode(foldCode(c.charCodeAt(0)))).join('');
        const piece = RUN_MIN / 2;
        const at = new Map<string, number[]>();
        for (let p = 0; p + piece <= folded.length; p += piece) {
          const text = folded.slice(p, p + piece);
          at.set(text, [...(at.get(text) ?? []), p]);
        }
        this.runs = { anchors: new RegExp([...at.keys()].map(escapeRegExp).join('|'), 'gi'), at, folded };
      }
    }
    const runs = this.runs;
    if (runs === null) return text;
    const { anchors, at, folded } = runs;
    const cuts: [number, number][] = [];
    anchors.lastIndex = 0;
    for (let hit = anchors.exec(text); hit; hit = anchors.exec(text)) {
      const start = hit.index;
      const end = start + hit[0].length;
      let best: [number, number] | undefined;
      for (const p of at.get(hit[0].replace(/[A-Z]/g, (c) => c.toLowerCase())) ?? []) {
        let left = 0;
        while (start - left > 0 && p - left > 0 && foldCode(text.charCodeAt(start - left - 1)) === folded.charCodeAt(p - left - 1)) left++;
        let right = 0;
        while (end + right < text.length && p + (end - start) + right < folded.length && foldCode(text.charCodeAt(end + right)) === folded.charCodeAt(p + (end - start) + right)) right++;
        if (left + (end - start) + right >= RUN_MIN && (!best || best[1] - best[0] < left + (end - start) + right)) best = [start - left, end + right];
      }
      if (best) {
        // A hit inside the previous cut adds nothing; one that overlaps it extends it.
        const last = cuts[cuts.length - 1];
        if (last && best[0] <= last[1]) last[1] = Math.max(last[1], best[1]);
        else cuts.push(best);
        anchors.lastIndex = Math.max(anchors.lastIndex, best[1]);
      } else anchors.lastIndex = start + 1;
    }
    if (!cuts.length) return text;
    let out = '';
    let from = 0;
    for (const [a, b] of cuts) {
      out += text.slice(from, a) + REDACTED;
      from = b;
    }
    return out + text.slice(from);
  }
}

/** Redactors by their secret, then by their forms: found without building a key string per call (the secret's string carries its own hash). */
const redactors = new Map<string, { whole: readonly string[]; redactor: Redactor }[]>();
/**
 * The redactor of one secret: `whole` forms are matched in every spelling, `key` (the secret proper)
 * also as runs. Made once per secret and kept (OAuth access tokens come and go: at most 256).
 */
export function redactorFor(whole: readonly string[], key: string): Redactor {
  let kept = redactors.get(key);
  const found = kept?.find((k) => k.whole.length === whole.length && k.whole.every((form, i) => form === whole[i]));
  if (found) return found.redactor;
  const redactor = new Redactor(whole, key);
  if (!kept) {
    if (redactors.size >= 256) redactors.clear();
    redactors.set(key, (kept = []));
  }
  if (kept.length >= 8) kept.length = 0;
  kept.push({ whole: [...whole], redactor });
  return redactor;
}
