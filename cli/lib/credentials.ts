// Where svc-cli talks to (SVC_ENGINE_URL) and the CLI credential it presents: SVC_CLI_TOKEN for one
// command, else the credential stored by `svc-cli login` in $XDG_CONFIG_HOME/svc-cli/credentials.json
// (mode 0600, directory 0700), keyed by Engine URL. The credential is never printed.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { CliError } from './errors.ts';

export const DEFAULT_ENGINE_URL = 'http://127.0.0.1:8700';

/** A URL as it may be printed: without `user:password@` (never echoed, it may hold a password). */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}

export function engineUrl(): string {
  const raw = process.env.SVC_ENGINE_URL?.trim() || DEFAULT_ENGINE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`SVC_ENGINE_URL is not a URL ('${displayUrl(raw)}')`, `set it to the Engine's address, e.g. ${DEFAULT_ENGINE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`SVC_ENGINE_URL must be an http(s) URL ('${displayUrl(raw)}')`, `set it to the Engine's address, e.g. ${DEFAULT_ENGINE_URL}`);
  }
  if (url.username || url.password) {
    // The Engine takes no user name or password in its URL; the CLI credential is the bearer token.
    url.username = '';
    url.password = '';
    throw new CliError(`SVC_ENGINE_URL must not carry a user name or password (${url.href.replace(/\/+$/, '')})`, 'remove them from it; the CLI signs in with `svc-cli login` or SVC_CLI_TOKEN');
  }
  return url.href.replace(/\/+$/, '');
}

export function configDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config'), 'svc-cli');
}

export const credentialsFile = () => join(configDir(), 'credentials.json');

export interface StoredCredential {
  token: string;
  subject: string;
  savedAt: string;
  /** When the Engine said it expires (absent in files written before credentials expired). */
  expiresAt?: string | null;
}

interface CredentialsFile {
  engines: Record<string, StoredCredential>;
}

function readAll(): CredentialsFile {
  let text: string;
  try {
    text = readFileSync(credentialsFile(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { engines: {} };
    throw new CliError(`cannot read ${credentialsFile()} (${(err as Error).message})`, 'check its permissions or run `svc-cli login` again');
  }
  try {
    const parsed = JSON.parse(text) as CredentialsFile;
    if (parsed && typeof parsed.engines === 'object' && parsed.engines) return parsed;
  } catch {
    // fall through
  }
  throw new CliError(`${credentialsFile()} is damaged`, 'delete it and run `svc-cli login` again');
}

function writeAll(data: CredentialsFile): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = credentialsFile();
  const temp = `${file}.${process.pid}.tmp`;
  // A fresh file created with mode 0600 and renamed over the old one: never readable by others.
  writeFileSync(temp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  renameSync(temp, file);
  chmodSync(file, 0o600);
}

export function storedCredential(url: string): StoredCredential | undefined {
  return readAll().engines[url];
}

export function saveCredential(url: string, credential: StoredCredential): void {
  const all = readAll();
  all.engines[url] = credential;
  writeAll(all);
}

/** Deletes the stored credential for `url`; true when there was one. */
export function deleteCredential(url: string): boolean {
  const all = readAll();
  if (!all.engines[url]) return false;
  delete all.engines[url];
  if (Object.keys(all.engines).length) writeAll(all);
  else rmSync(credentialsFile(), { force: true });
  return true;
}

export interface ActiveCredential {
  token: string;
  /** env: SVC_CLI_TOKEN; stored: credentials.json; stdin: being checked by `login --with-token`. */
  source: 'env' | 'stored' | 'stdin';
}

/** A bearer token must be visible ASCII: anything else (a control character, a space) cannot even be sent. */
export const isSendableToken = (token: string) => /^[\x21-\x7e]+$/.test(token);

/** The credential for this command, or a one-line error telling how to sign in. */
export function activeCredential(url: string): ActiveCredential {
  const fromEnv = process.env.SVC_CLI_TOKEN?.trim();
  if (fromEnv) {
    if (!isSendableToken(fromEnv)) throw new CliError('SVC_CLI_TOKEN is malformed (it holds a control character, space or non-ASCII character)', 'set it to a credential from `svc-engine credential create`, or unset it to use the stored one');
    return { token: fromEnv, source: 'env' };
  }
  const stored = storedCredential(url);
  if (stored) {
    if (typeof stored.token !== 'string' || !isSendableToken(stored.token)) {
      throw new CliError(`the credential stored for ${url} in ${credentialsFile()} is malformed`, 'run `svc-cli login` again');
    }
    return { token: stored.token, source: 'stored' };
  }
  // Logged in to the same server under another URL (`…/v1` added by mistake): say so.
  const origin = new URL(url).origin;
  const sibling = Object.keys(readAll().engines).find((other) => other !== url && URL.canParse(other) && new URL(other).origin === origin);
  if (sibling) throw new CliError(`not logged in to ${url}, but to ${sibling}`, `check SVC_ENGINE_URL (the Engine's address is usually ${sibling}), or run \`svc-cli login\` for ${url}`);
  throw new CliError(`not logged in to ${url}`, 'run `svc-cli login` (or pipe a credential to `svc-cli login --with-token`)');
}
