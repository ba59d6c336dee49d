// The typed Engine HTTP client (openapi-fetch over the `paths` generated from
// spec/engine.openapi.yaml) and the translation of Engine answers into one-line CLI errors.
import createClient, { type Client } from 'openapi-fetch';
import type { ValidateFunction } from 'ajv';
import type { paths } from '../../generated/engine-api/types.ts';
import { routes } from '../../generated/engine-api/routes.ts';
import * as responseValidators from '../../generated/engine-api/response-validators.js';
import { DEFAULT_ENGINE_URL, activeCredential, displayUrl, engineUrl, type ActiveCredential } from './credentials.ts';
import { CliError, UsageError } from './errors.ts';
import { refuseInsecure } from './transport.ts';
import { CLI_VERSION } from './version.ts';

export type EngineApi = Client<paths>;

const REQUEST_TIMEOUT_MS = 120_000;

/** The Engine's error envelope (docs/architecture.md, the result envelope), as far as the CLI needs it. */
export interface EngineFailure {
  status: number;
  code: string | undefined;
  message: string;
  details: Record<string, unknown> | undefined;
}

/** What to tell the user to do about a failure; undefined falls back to the command's default. */
export type Hint = string | ((failure: EngineFailure) => string | undefined);

/** `GET /v1/sdks` → the spec's validator of that operation's success answer. */
const ANSWER_CHECKS = new Map<string, ValidateFunction>(
  routes.flatMap((r) => {
    const validate = (responseValidators as Record<string, ValidateFunction | undefined>)[r.operationId];
    return validate ? [[`${r.method} ${r.path}`, validate] as const] : [];
  }),
);
/** Which operation each answer belongs to, noted as it arrives (a Response does not say its method). */
const operationOf = new WeakMap<Response, string>();

/** The Engine's HTTP client; with `bearer`, every request carries it (refused first over plain HTTP to another host). */
export function engineClient(url: string, bearer?: string): EngineApi {
  if (bearer) refuseInsecure(url, { bearer });
  const client = createClient<paths>({
    baseUrl: url,
    headers: { 'user-agent': `svc-cli/${CLI_VERSION}`, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    fetch: (request: Request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  });
  client.use({
    onResponse({ request, response, schemaPath }) {
      operationOf.set(response, `${request.method} ${schemaPath}`);
    },
  });
  return client;
}

/**
 * Refuses a success answer the spec does not describe: another server on that address (one that
 * answers 200 JSON to anything), or an Engine of an incompatible version; never a crash further on.
 */
function checkAnswer(url: string, response: Response, data: unknown): void {
  const operation = operationOf.get(response);
  const validate = operation ? ANSWER_CHECKS.get(operation) : undefined;
  if (!validate || validate(data)) return;
  const first = validate.errors?.[0];
  const where = first ? ` (${first.instancePath || 'the body'} ${first.message ?? 'is not as expected'})` : '';
  throw new CliError(
    `the answer from ${displayUrl(url)} to ${operation} is not what svc-engine ${CLI_VERSION} sends${where}`,
    `check that SVC_ENGINE_URL points at an svc-engine, of the same version as this svc-cli (\`svc-cli --version\`)`,
  );
}

/** The Engine's error envelope: `{ok: false, status, error: {code, message, …}}`. Anything else came from some other server. */
export function envelopeOf(error: unknown): { code: string; message: string; details?: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const envelope = error as { ok?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
  const inner = envelope.error;
  if (envelope.ok !== false || typeof inner !== 'object' || inner === null) return undefined;
  return typeof inner.code === 'string' && typeof inner.message === 'string' ? (inner as { code: string; message: string; details?: unknown }) : undefined;
}

function failureOf(inner: { code: string; message: string; details?: unknown }, response: Response): EngineFailure {
  return {
    status: response.status,
    code: inner.code,
    message: inner.message,
    details: inner.details && typeof inner.details === 'object' ? (inner.details as Record<string, unknown>) : undefined,
  };
}

/** An answer that is not the Engine's: SVC_ENGINE_URL points at some other server. */
export function notTheEngine(url: string, response: Response | undefined, body?: unknown): CliError {
  const why = response === undefined || typeof body !== 'object' || body === null ? 'its answer is not JSON' : 'its answer is not an Engine envelope';
  const status = response ? ` (HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}; ${why})` : ` (${why})`;
  return new CliError(`the server at ${displayUrl(url)} does not look like svc-engine${status}`, `check SVC_ENGINE_URL; it should be the Engine's address, e.g. ${DEFAULT_ENGINE_URL}`);
}

/**
 * The Engine has a route for every path svc-cli builds, so "no route" means SVC_ENGINE_URL carries
 * an extra path (`…/v1`) or names an Engine that does not know this request (an older one).
 */
function noRoute(url: string, failure: EngineFailure): CliError | undefined {
  if (failure.status !== 404 || failure.code !== 'ENGINE_NOT_FOUND' || !/^no route for /.test(failure.message)) return undefined;
  const parsed = new URL(url);
  if (parsed.pathname !== '/' && parsed.pathname !== '') {
    return new CliError(
      `SVC_ENGINE_URL has an extra path ('${parsed.pathname}'): the Engine answered ${failure.message}`,
      `set SVC_ENGINE_URL to the Engine's root, e.g. ${parsed.origin}`,
    );
  }
  return new CliError(`the Engine at ${displayUrl(url)} answered ${failure.message}`, `it may be older than svc-cli ${CLI_VERSION}; upgrade the Engine or use a matching svc-cli`);
}

/**
 * The Engine's message may end with its own advice (`…; list them with \`svc-cli mcp list\``):
 * that advice becomes the hint, so the line does not say the same thing twice.
 */
export function engineAdvice(message: string): { what: string; advice: string } | undefined {
  const match = /^(.+?); ([^;]*`svc-cli [^`]+`[^;]*)$/s.exec(message);
  return match ? { what: match[1]!, advice: match[2]! } : undefined;
}

/** An Engine refusal, keeping the envelope's code and details for callers that relabel fields. */
export class EngineCallError extends CliError {
  override name = 'EngineCallError';
  readonly failure: EngineFailure;
  constructor(failure: EngineFailure, hint: string) {
    super(failure.message, hint);
    this.failure = failure;
  }
}

/** Which flag filled each request field (`binding.endUserRef` → `--end-user`), as the Engine names fields in `details.field`. */
export type FlagFields = Record<string, string>;

/**
 * An Engine schema refusal (400 ENGINE_INVALID_INPUT) of a field the CLI filled from a flag, told
 * as that flag: a usage error (exit 2), not the request's internals (`body/binding/endUserRef …`).
 */
export function flagRefusal(failure: EngineFailure, flags: FlagFields | undefined): UsageError | undefined {
  const field = failure.details?.field;
  if (!flags || failure.status !== 400 || failure.code !== 'ENGINE_INVALID_INPUT' || typeof field !== 'string' || !Object.hasOwn(flags, field)) return undefined;
  const flag = flags[field]!;
  // The first schema error says what is wrong without the path; a handler's own message starts with the field.
  const first = (failure.details?.errors as { message?: unknown }[] | undefined)?.[0]?.message;
  const own = failure.message.startsWith(field) ? failure.message.slice(field.length).replace(/^:?\s*/, '') : failure.message;
  const what = typeof first === 'string' ? first : own;
  return new UsageError(`${flag} ${what}`, `fix ${flag} and run the command again (see --help)`);
}

/** Turns a thrown fetch failure (refused connection, timeout, non-JSON answer) into a CliError. */
export function transportError(url: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const shown = displayUrl(url);
  if (e?.name === 'TimeoutError') {
    return new CliError(`the Engine at ${shown} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`, 'check that it is healthy and try again');
  }
  if (e instanceof SyntaxError) return notTheEngine(url, undefined);
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new CliError(`cannot reach the Engine at ${shown} (${reason.split(url).join(shown)})`, 'start it (`npm start`) or set SVC_ENGINE_URL to its address');
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** Awaits an openapi-fetch call; returns its data or throws a one-line CliError. */
export async function unwrap<T>(
  url: string,
  request: Promise<Answer<T>>,
  options: { hint?: Hint; credential?: ActiveCredential; flags?: FlagFields } = {},
): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (err) {
    throw transportError(url, err);
  }
  if (answer.response.ok) {
    checkAnswer(url, answer.response, answer.data);
    return answer.data as T;
  }
  const envelope = envelopeOf(answer.error);
  if (!envelope) {
    throw notTheEngine(url, answer.response, answer.error);
  }
  const failure = failureOf(envelope, answer.response);
  const routeless = noRoute(url, failure);
  if (routeless) throw routeless;
  if (failure.status === 401 && options.credential) {
    // An expired or revoked credential is named as such by the Engine (`the CLI credential expired at …`).
    const lapsed = failure.details?.reason === 'expired' || failure.details?.reason === 'revoked';
    throw new CliError(
      lapsed ? failure.message : `the Engine refused the CLI credential: ${failure.message}`,
      {
        env: 'SVC_CLI_TOKEN holds an expired or revoked credential; unset it or use a new one',
        stored: 'run `svc-cli login` to sign in again',
        stdin: 'create a new one with `svc-engine credential create --subject <you>`',
      }[options.credential.source],
    );
  }
  const refusal = flagRefusal(failure, options.flags);
  if (refusal) throw refusal;
  const advice = engineAdvice(failure.message);
  if (advice) throw new EngineCallError({ ...failure, message: advice.what }, advice.advice);
  const hint = typeof options.hint === 'function' ? options.hint(failure) : options.hint;
  throw new EngineCallError(failure, hint ?? defaultHint(failure));
}

function defaultHint(failure: EngineFailure): string {
  if (failure.status === 403) return 'ask the workspace owner for access';
  if (failure.status >= 500) return 'see the Engine log for details and try again';
  return 'check the arguments (see --help) and try again';
}

/** A signed-in connection to the Engine: the client plus `call`, which unwraps with the right 401 hint. */
export interface Session {
  url: string;
  api: EngineApi;
  credential: ActiveCredential;
  /** `flags`: the request fields filled from flags, so the Engine's refusal of one names its flag. */
  call<T>(request: Promise<Answer<T>>, hint?: Hint, flags?: FlagFields): Promise<T>;
}

export function session(): Session {
  const url = engineUrl();
  const credential = activeCredential(url);
  const api = engineClient(url, credential.token);
  return { url, api, credential, call: (request, hint, flags) => unwrap(url, request, { hint, credential, flags }) };
}
