// The typed Engine HTTP client (openapi-fetch over the `paths` generated from
// spec/engine.openapi.yaml) and the translation of Engine answers into one-line CLI errors.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/engine-api/types.ts';
import { activeCredential, engineUrl, type ActiveCredential } from './credentials.ts';
import { CliError } from './errors.ts';
import { CLI_VERSION } from './version.ts';

export type EngineApi = Client<paths>;

const REQUEST_TIMEOUT_MS = 120_000;

/** The Engine's error envelope (DESIGN §5), as far as the CLI needs it. */
export interface EngineFailure {
  status: number;
  code: string | undefined;
  message: string;
  details: Record<string, unknown> | undefined;
}

/** What to tell the user to do about a failure; undefined falls back to the command's default. */
export type Hint = string | ((failure: EngineFailure) => string | undefined);

export function engineClient(url: string, bearer?: string): EngineApi {
  return createClient<paths>({
    baseUrl: url,
    headers: { 'user-agent': `svc-cli/${CLI_VERSION}`, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    fetch: (request: Request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  });
}

function failureOf(error: unknown, response: Response): EngineFailure {
  const envelope = error as { status?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  const inner = envelope && typeof envelope === 'object' ? envelope.error : undefined;
  if (inner && typeof inner === 'object' && typeof inner.message === 'string') {
    return {
      status: response.status,
      code: typeof inner.code === 'string' ? inner.code : undefined,
      message: inner.message,
      details: inner.details && typeof inner.details === 'object' ? (inner.details as Record<string, unknown>) : undefined,
    };
  }
  return { status: response.status, code: undefined, message: `the Engine answered HTTP ${response.status} ${response.statusText}`.trim(), details: undefined };
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

/** Turns a thrown fetch failure (refused connection, timeout, non-JSON answer) into a CliError. */
export function transportError(url: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') {
    return new CliError(`the Engine at ${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`, 'check that it is healthy and try again');
  }
  if (e instanceof SyntaxError) {
    return new CliError(`the server at ${url} did not answer with JSON`, 'check that SVC_ENGINE_URL points at svc-engine');
  }
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new CliError(`cannot reach the Engine at ${url} (${reason})`, 'start it (`npm start`) or set SVC_ENGINE_URL to its address');
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** Awaits an openapi-fetch call; returns its data or throws a one-line CliError. */
export async function unwrap<T>(
  url: string,
  request: Promise<Answer<T>>,
  options: { hint?: Hint; credential?: ActiveCredential } = {},
): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (err) {
    throw transportError(url, err);
  }
  if (answer.response.ok) return answer.data as T;
  const failure = failureOf(answer.error, answer.response);
  if (failure.status === 401 && options.credential) {
    throw new CliError(
      `the Engine refused the CLI credential: ${failure.message}`,
      {
        env: 'SVC_CLI_TOKEN holds an expired or revoked credential; unset it or use a new one',
        stored: 'run `svc-cli login` to sign in again',
        stdin: 'create a new one with `svc-engine credential create --subject <you>`',
      }[options.credential.source],
    );
  }
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
  call<T>(request: Promise<Answer<T>>, hint?: Hint): Promise<T>;
}

export function session(): Session {
  const url = engineUrl();
  const credential = activeCredential(url);
  const api = engineClient(url, credential.token);
  return { url, api, credential, call: (request, hint) => unwrap(url, request, { hint, credential }) };
}
