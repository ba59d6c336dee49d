// The desired workspace lives in ./svc.workspace.json:
//   {"services": {"demo-crm": {"version": "v1", "baseUrl": "http://127.0.0.1:8790"}}}
// `workspace service add/remove` edit it; `workspace plan` diffs it against the Engine's enabled
// services; `workspace apply` makes the Engine match it. baseUrl absent = the catalog default.
import type { components } from '../../../generated/engine-api/types.ts';
import type { Session } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { readJsonFile, workingFile, writeJsonFile, type WriteOutcome } from '../../lib/files.ts';

export const WORKSPACE_FILE = 'svc.workspace.json';

export interface DesiredService {
  version: string;
  baseUrl?: string;
}
export interface WorkspaceFile {
  services: Record<string, DesiredService>;
}
type Enabled = components['schemas']['WorkspaceService'];

export interface WorkspaceChange {
  action: '+' | '-' | '~';
  service: string;
  /** Desired (for + and ~) or current (for -). */
  version: string;
  baseUrl?: string;
  from?: { version: string; baseUrl?: string };
}

/** The keys a service entry may have. */
const ENTRY_KEYS = ['version', 'baseUrl'];

const trimUrl = (u: string | undefined) => (u ? u.replace(/\/+$/, '') : undefined);

export function readWorkspaceFile(file?: string): WorkspaceFile | undefined {
  const path = workingFile(WORKSPACE_FILE, file);
  const name = file ?? WORKSPACE_FILE;
  const fix = 'fix it, or delete it and run `svc-cli workspace service add` again';
  const value = readJsonFile(path, fix);
  if (value === undefined) return undefined;
  // `services` maps names to selections; a list (even an empty one) is not that shape. An empty
  // object is the one way to say "no services": it is what removing the last one writes.
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value) || !isObject(value.services)) throw new CliError(`${name} is not a workspace file ({"services": {"<service>": {"version": "v1"}}})`, fix);
  // Each entry is checked key by key: an unknown key (a mistyped `baseURL`) would otherwise be
  // dropped without a word, and the service pointed at the catalog's (production) address.
  for (const [service, entry] of Object.entries(value.services)) {
    const at = `${name}: services.${service}`;
    if (!isObject(entry)) throw new CliError(`${at} must be an object like {"version": "v1"}`, fix);
    for (const k of Object.keys(entry)) {
      if (!ENTRY_KEYS.includes(k)) throw new CliError(`${at}.${k} is not a known key (${ENTRY_KEYS.join(', ')})`, 'fix or remove it in the file');
    }
    if (typeof entry.version !== 'string') throw new CliError(`${at}.version must be a string like v1`, 'fix it in the file');
    if (entry.baseUrl !== undefined && typeof entry.baseUrl !== 'string') throw new CliError(`${at}.baseUrl must be a string (an http(s) URL)`, 'fix it in the file, or remove it to use the catalog default');
  }
  return value as unknown as WorkspaceFile;
}

export function writeWorkspaceFile(state: WorkspaceFile, file?: string): WriteOutcome {
  const services = Object.fromEntries(Object.entries(state.services).sort(([a], [b]) => (a < b ? -1 : 1)));
  return writeJsonFile(workingFile(WORKSPACE_FILE, file), { services });
}

export async function enabledServices(s: Session): Promise<Enabled[]> {
  return (await workspaceState(s)).services;
}

/** The enabled services and the revision they make (what an apply names as planned from). */
export async function workspaceState(s: Session): Promise<{ services: Enabled[]; revision: string }> {
  return s.call(s.api.GET('/v1/workspace/services'));
}

/** The file's state, or (when there is no file yet) the Engine's current state, so that nothing is dropped by accident. */
export async function currentDesired(s: Session, file?: string): Promise<WorkspaceFile> {
  const existing = readWorkspaceFile(file);
  if (existing) return existing;
  const services: Record<string, DesiredService> = {};
  for (const e of await enabledServices(s)) services[e.name] = { version: e.version, ...(e.baseUrlOverridden ? { baseUrl: e.baseUrl } : {}) };
  return { services };
}

export function diffWorkspace(desired: WorkspaceFile, enabled: Enabled[]): WorkspaceChange[] {
  const changes: WorkspaceChange[] = [];
  const current = new Map(enabled.map((e) => [e.name, e]));
  for (const [service, want] of Object.entries(desired.services).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const have = current.get(service);
    const baseUrl = trimUrl(want.baseUrl);
    if (!have) {
      changes.push({ action: '+', service, version: want.version, ...(baseUrl ? { baseUrl } : {}) });
      continue;
    }
    const haveOverride = have.baseUrlOverridden ? trimUrl(have.baseUrl) : undefined;
    const urlDiffers = baseUrl ? trimUrl(have.baseUrl) !== baseUrl : haveOverride !== undefined;
    if (have.version !== want.version || urlDiffers) {
      changes.push({
        action: '~',
        service,
        version: want.version,
        ...(baseUrl ? { baseUrl } : {}),
        from: { version: have.version, ...(haveOverride ? { baseUrl: haveOverride } : {}) },
      });
    }
  }
  for (const e of enabled) {
    if (!(e.name in desired.services)) changes.push({ action: '-', service: e.name, version: e.version });
  }
  return changes;
}

/** A stored credential that a change would leave behind: it is sent only to the origin it was set for. */
export interface CredentialLeftBehind {
  service: string;
  credential: 'secret' | 'oauth_client';
  boundTo: string;
  sentTo: string;
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/**
 * The secrets and OAuth clients whose service `changes` would move to another origin (`sentTo`:
 * each change's base URL, or its catalog default from `catalogBaseUrl`).
 */
export function findCredentialsLeftBehind(
  changes: WorkspaceChange[],
  secrets: { service: string; origin: string | null }[],
  catalogBaseUrl: (service: string, version: string) => string | undefined,
): CredentialLeftBehind[] {
  const left: CredentialLeftBehind[] = [];
  for (const c of changes) {
    if (c.action === '-') continue;
    const target = c.baseUrl ?? catalogBaseUrl(c.service, c.version);
    if (!target) continue;
    const sentTo = originOf(target);
    for (const s of secrets) {
      const credential = s.service === c.service ? 'secret' : s.service === `${c.service}#oauth-client` ? 'oauth_client' : undefined;
      if (credential && s.origin !== null && s.origin !== sentTo) left.push({ service: c.service, credential, boundTo: s.origin, sentTo });
    }
  }
  return left;
}

/** One line telling what to set again after a change leaves a credential behind. */
export function describeLeftBehind(l: CredentialLeftBehind): string {
  return l.credential === 'secret'
    ? `${l.service}: its secret is sent only to ${l.boundTo}; set it again for ${l.sentTo} (svc-cli secret set ${l.service} --value-stdin)`
    : `${l.service}: its OAuth client and end users' connections stay with ${l.boundTo}; set the client again for ${l.sentTo} (svc-cli secret set ${l.service} --oauth-client-id <id> --value-stdin) and reconnect end users`;
}

export function describeWorkspaceChange(c: WorkspaceChange): string {
  if (c.action === '+') return `${c.service} ${c.version}${c.baseUrl ? ` (base URL ${c.baseUrl})` : ''}`;
  if (c.action === '-') return `${c.service} ${c.version}`;
  const parts: string[] = [];
  if (c.from!.version !== c.version) parts.push(`${c.from!.version} → ${c.version}`);
  if (c.from!.baseUrl !== c.baseUrl) parts.push(`base URL ${c.from!.baseUrl ?? 'catalog default'} → ${c.baseUrl ?? 'catalog default'}`);
  return `${c.service} ${parts.join(', ')}`;
}

export function summarizeWorkspace(changes: WorkspaceChange[]) {
  return {
    enable: changes.filter((c) => c.action === '+').length,
    change: changes.filter((c) => c.action === '~').length,
    disable: changes.filter((c) => c.action === '-').length,
  };
}
