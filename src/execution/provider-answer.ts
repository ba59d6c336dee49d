// A provider's answer as the execution path reads it: its body as JSON text, parsed data or text.
import { isJsonText } from './json-check.ts';
import { clipRefusalBody } from './refusal-body.ts';

export interface ProviderResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON (on its first read, for a body that checked as JSON), text, or null for an empty body. */
  data: unknown;
  /** Raw body bytes. */
  raw: Buffer;
  /** The body's JSON text (secret already redacted) when the body is JSON: `data` is parsed from it. */
  json?: string | undefined;
  durationMs: number;
}

const JSON_TYPE = /json/i;

/** `data` of a body checked as JSON (./json-check.ts) but not parsed yet. */
const UNPARSED: unique symbol = Symbol('unparsed');

/** An answer whose body checked as JSON: `data` is parsed on its first read (a class, so every such answer shares one shape). */
class JsonAnswer implements ProviderResponse {
  readonly status: number;
  readonly headers: ProviderResponse['headers'];
  readonly raw: Buffer;
  readonly json: string;
  readonly durationMs: number;
  #data: unknown = UNPARSED;

  constructor(status: number, headers: ProviderResponse['headers'], raw: Buffer, json: string, durationMs: number) {
    this.status = status;
    this.headers = headers;
    this.raw = raw;
    this.json = json;
    this.durationMs = durationMs;
  }

  get data(): unknown {
    return this.#data === UNPARSED ? (this.#data = JSON.parse(this.json)) : this.#data;
  }
}

/**
 * The answer to one attempt, its body already redacted. A JSON body that checks as JSON is parsed
 * on the first read of `data` only: the REST and gRPC answers splice its text (`json`) into their
 * envelope (src/calls/result-text.ts), so they never build the objects.
 */
export function providerAnswer(status: number, headers: ProviderResponse['headers'], raw: Buffer, durationMs: number): ProviderResponse {
  const body = parseBody(raw, headers['content-type']);
  if (status === 401 || status === 403) {
    // A refusal keeps only what names its error: the answers that quote a refused credential (./refusal-body.ts).
    return { status, headers, data: clipRefusalBody(body.data === UNPARSED ? JSON.parse(body.json!) : body.data), raw, durationMs };
  }
  if (body.data === UNPARSED) return new JsonAnswer(status, headers, raw, body.json!, durationMs);
  return { status, headers, data: body.data, raw, json: body.json, durationMs };
}

function parseBody(raw: Buffer, contentType: string | string[] | undefined): { data: unknown; json?: string } {
  if (raw.length === 0) return { data: null };
  const text = raw.toString('utf8');
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (type && JSON_TYPE.test(type)) {
    if (isJsonText(raw)) return { data: UNPARSED, json: text };
    try {
      return { data: JSON.parse(text), json: text };
    } catch {
      return { data: text };
    }
  }
  return { data: text };
}
