// SDK and MCP definitions ({name, services, operations}, the Engine's SdkDefinition): built from
// `init` flags, kept in ./svc.sdk.json or ./svc.mcp.json, and planned or published by the Engine.
// The two kinds differ only in endpoints and wording, so they share this module.
import { basename } from 'node:path';
import type { components } from '../../generated/engine-api/types.ts';
import { EngineCallError, type Session } from './engine.ts';
import { CliError, UsageError } from './errors.ts';
import { readJsonFile, workingFile } from './files.ts';
import { planLine, plural, print, printJson } from './output.ts';

/** An SDK or MCP definition; requireApproval is an MCP server's (the Engine refuses it in an SDK's). */
export type Definition = components['schemas']['SdkDefinition'] & { requireApproval?: string[] };
export type Plan = components['schemas']['SdkPlan'];
export type PublishResult = components['schemas']['PublishResult'];

export interface DefinitionKind {
  kind: 'sdk' | 'mcp';
  /** 'SDK' or 'MCP server', for messages. */
  noun: string;
  fileName: string;
  /** Past tense of apply: 'published' or 'deployed'. */
  applied: string;
}

export const SDK: DefinitionKind = { kind: 'sdk', noun: 'SDK', fileName: 'svc.sdk.json', applied: 'published' };
export const MCP: DefinitionKind = { kind: 'mcp', noun: 'MCP server', fileName: 'svc.mcp.json', applied: 'deployed' };

const NAME = /^[a-z][a-z0-9-]{0,62}$/;
const SERVICE_PAIR = /^[a-z][a-z0-9-]{0,62}=v[0-9]+$/;
const OPERATION_PAIR = /^[a-z][a-z0-9-]{0,62}=\S.*$/;

/** A definition from `init` flags; malformed names and pairs are usage errors (exit 2). */
export function definitionFromFlags(kind: DefinitionKind, name: string, services: string[], operations: string[], requireApproval?: string[]): Definition {
  if (requireApproval?.length && kind.kind !== 'mcp') throw new UsageError('--require-approval applies to MCP servers only', 'leave it out of `sdk init`');
  if (!NAME.test(name)) {
    throw new UsageError(`'${name}' is not a valid ${kind.noun} name`, 'use lowercase letters, digits and dashes, starting with a letter (e.g. crm)');
  }
  for (const s of services) {
    if (!SERVICE_PAIR.test(s)) throw new UsageError(`--service '${s}' is not <service>=<version>`, "write it like --service 'demo-crm=v1'");
  }
  for (const o of operations) {
    if (!OPERATION_PAIR.test(o)) {
      throw new UsageError(`--operation '${o}' is not <service>=<operation>`, "write it like --operation 'demo-crm=contacts/list' (or 'demo-crm=contacts/*')");
    }
  }
  return { name, services: [...new Set(services)], operations: [...new Set(operations)], ...(requireApproval?.length ? { requireApproval: [...new Set(requireApproval)] } : {}) };
}

export interface LoadedDefinition {
  path: string;
  definition: Definition;
}

/** Reads ./svc.sdk.json (or --file) and checks its shape. */
export function loadDefinition(kind: DefinitionKind, file: string | undefined): LoadedDefinition {
  const path = workingFile(kind.fileName, file);
  const initHint = `run \`svc-cli ${kind.kind} init <name> --service <service>=<version> --operation <service>=<operation>\` first, or pass --file`;
  const value = readJsonFile(path, `fix it or re-create it with \`svc-cli ${kind.kind} init\``);
  if (value === undefined && file) throw new CliError(`no ${kind.noun} definition at ${path}`, `check the path given to --file, or create it with \`svc-cli ${kind.kind} init <name> … --file ${file}\``);
  if (value === undefined) throw new CliError(`no ${basename(path)} in ${process.cwd()}`, initHint);
  const def = value as Partial<Definition>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (typeof def !== 'object' || def === null || typeof def.name !== 'string' || !strings(def.services) || !strings(def.operations)) {
    throw new CliError(`${basename(path)} is not a ${kind.noun} definition ({"name", "services": [...], "operations": [...]})`, `re-create it with \`svc-cli ${kind.kind} init\``);
  }
  const gated = (value as { requireApproval?: unknown }).requireApproval;
  if (gated !== undefined && !strings(gated)) throw new CliError(`${basename(path)} "requireApproval" must be a list of operation IDs`, "write it like \"requireApproval\": [\"demo-crm.contacts/delete\"] or [\"destructive\"]");
  return { path, definition: { name: def.name, services: def.services!, operations: def.operations!, ...(gated !== undefined ? { requireApproval: gated as string[] } : {}) } };
}

/**
 * Where a refusal points: the Engine names fields as `operations[1]` (details.field) or, for schema
 * errors, `operations.1` (details.field) and `/operations/1` (instancePath). Rewrites that to the
 * flag or file entry the user wrote.
 */
function relabel(err: unknown, kind: DefinitionKind, definition: Definition, source: 'flags' | string): unknown {
  if (!(err instanceof EngineCallError)) return err;
  const { details, message } = err.failure;
  const errors = details?.errors as { instancePath?: string }[] | undefined;
  const field = typeof details?.field === 'string' ? details.field : errors?.[0]?.instancePath;
  const name = field ? /^\/?name$/.exec(field) : null;
  if (name) {
    // The app's name: the flag or the file's "name", not the request body the Engine saw.
    const rest = message.replace(/^(body)?\/?name:?\s*/, '');
    const label = source === 'flags' ? `name '${definition.name}'` : `${basename(source)} name ('${definition.name}')`;
    return new CliError(`${label}: ${rest}`, source === 'flags' ? 'names are lower-case letters, digits and dashes, starting with a letter' : `correct ${basename(source)}`);
  }
  const whole = field ? /^\/?(services|operations)$/.exec(field) : null;
  if (whole) {
    // The list itself (`must NOT have fewer than 1 items`): the flag or the file's field.
    const rest = message.replace(/^(body)?\/?(services|operations):?\s*/, '');
    const label = source === 'flags' ? `--${whole[1] === 'services' ? 'service' : 'operation'}` : `${basename(source)} "${whole[1]}"`;
    const empty = /fewer than 1 item/.test(rest);
    const fix = source === 'flags' ? 'correct the flags and run init again' : `${empty ? 'list at least one entry in' : 'correct'} ${basename(source)}, or re-create it with \`svc-cli ${kind.kind} init\``;
    return new CliError(empty ? `${label} is empty` : `${label}: ${rest}`, fix);
  }
  // `operations[1]`, `/operations/1` or (schema errors' dotted field) `operations.1`.
  const match = field ? /^\/?(services|operations)(?:\[(\d+)\]|[/.](\d+))/.exec(field) : null;
  if (!match) return err;
  const list = match[1] as 'services' | 'operations';
  const index = Number(match[2] ?? match[3]);
  const value = definition[list][index];
  const rest = message.replace(/^(body)?\/?(services|operations)(?:\[\d+\]|[/.]\d+):?\s*/, '');
  const label =
    source === 'flags' ? `--${list === 'services' ? 'service' : 'operation'} '${value}'` : `${basename(source)} ${list}[${index}] ('${value}')`;
  const hint =
    source === 'flags'
      ? `correct that flag and run init again${/unknown service/.test(rest) ? ' (see `svc-cli workspace services list`)' : ''}`
      : `correct ${basename(source)} or re-create it with \`svc-cli ${kind.kind} init\``;
  return new CliError(`${label}: ${rest}`, err.hint && !/check the arguments/.test(err.hint) ? err.hint : hint);
}

/** Runs an Engine call about `definition`, pointing any refused field at the flag or file entry. */
async function relabelled<T>(kind: DefinitionKind, definition: Definition, source: 'flags' | string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw relabel(err, kind, definition, source);
  }
}

/** Checks a definition against the catalog and workspace (the same rules hold for SDKs and MCP servers). */
export const validateDefinition = (s: Session, kind: DefinitionKind, definition: Definition, source: 'flags' | string) =>
  relabelled(kind, definition, source, () => s.call(s.api.POST('/v1/sdks/validate', { body: definition })));

export const planDefinition = (s: Session, kind: DefinitionKind, definition: Definition, source: 'flags' | string): Promise<Plan> =>
  relabelled(kind, definition, source, () =>
    kind.kind === 'sdk' ? s.call(s.api.POST('/v1/sdks/plan', { body: definition })) : s.call(s.api.POST('/v1/mcp/plan', { body: definition })),
  );

export const publishDefinition = (s: Session, kind: DefinitionKind, definition: Definition, source: string): Promise<PublishResult> =>
  relabelled(kind, definition, source, () =>
    kind.kind === 'sdk' ? s.call(s.api.POST('/v1/sdks/publish', { body: definition })) : s.call(s.api.POST('/v1/mcp/publish', { body: definition })),
  );

function describeChange(c: Plan['changes'][number]): string {
  if (c.kind === 'service') {
    if (c.action === '~') return `service ${c.id} ${c.from} → ${c.to}`;
    return `service ${c.id} ${c.action === '+' ? c.to : c.from}`;
  }
  if (c.kind === 'approval') return `approval required for ${c.id}`;
  return `operation ${c.id}`;
}

/** The +/-/~ lines, the summary line, and the version label apply would create. */
export function printPlan(kind: DefinitionKind, plan: Plan, fileName: string, json: boolean): void {
  if (json) return printJson(plan);
  if (!plan.nextVersion) {
    print(`No changes: ${plan.name}@${plan.currentVersion} already matches ${fileName}; apply has nothing to do.`);
    return;
  }
  print(plan.currentVersion ? `${kind.noun} ${plan.name}: changes from ${plan.currentVersion}` : `${kind.noun} ${plan.name}: first version`);
  for (const c of plan.changes) print(planLine(c.action, describeChange(c)));
  print(`Plan: ${plan.summary.add} to add, ${plan.summary.remove} to remove, ${plan.summary.change} to change.`);
  print(`Apply would ${kind.kind === 'sdk' ? 'publish' : 'deploy'} ${plan.name}@${plan.nextVersion}.`);
}

/** What `sdk apply` / `mcp apply` print; the token appears only when the Engine issued it. */
export function printPublished(kind: DefinitionKind, result: PublishResult, extra: { url?: string; endpoint?: string }, json: boolean, more?: Record<string, unknown>): void {
  if (json) {
    printJson({
      name: result.name,
      version: result.version,
      versionId: result.versionId,
      published: result.published,
      ...(extra.url ? { url: extra.url } : {}),
      ...(result.token ? { token: result.token } : {}),
      ...more,
    });
    return;
  }
  if (!result.published) {
    print(`Nothing to do: ${result.name}@${result.version} (${result.versionId}) is unchanged; no new version, no new token.`);
    return;
  }
  print(`${kind.applied === 'published' ? 'Published' : 'Deployed'} ${kind.noun} ${result.name}@${result.version}`);
  print(`  name        ${result.name}`);
  print(`  version     ${result.version}`);
  print(`  version ID  ${result.versionId}`);
  if (extra.url) print(`  runtime URL ${extra.url}`);
  if (extra.endpoint) print(`  REST        ${extra.endpoint}`);
  if (result.token) {
    const note =
      kind.kind === 'sdk'
        ? 'Execution token (shown only this once, store it now; `svc-cli sdk invoke` reads it from SVC_EXECUTION_TOKEN):'
        : 'Token (shown only this once; it allows every operation and never expires; narrow it with `svc-cli mcp token create` before an agent uses it):';
    print(note);
    print(`  ${result.token}`);
  }
}

export const summaryOf = (d: { services: unknown[]; operations: unknown[] }) =>
  `${plural(d.services.length, 'service')}, ${plural(d.operations.length, 'operation')}`;
