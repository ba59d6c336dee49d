// `workspace plan` previews and `workspace apply` makes the Engine match ./svc.workspace.json.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { session, type Session } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { workingFile } from '../../lib/files.ts';
import { checkBaseUrl } from './services.ts';
import { planLine, print, printJson, progress } from '../../lib/output.ts';
import {
  WORKSPACE_FILE,
  findCredentialsLeftBehind,
  describeLeftBehind,
  describeWorkspaceChange,
  diffWorkspace,
  readWorkspaceFile,
  summarizeWorkspace,
  workspaceState,
  type CredentialLeftBehind,
  type WorkspaceChange,
  type WorkspaceFile,
} from './state.ts';

interface Plan {
  changes: WorkspaceChange[];
  credentialsLeftBehind: CredentialLeftBehind[];
  versionsBroken: VersionBroken[];
  /** The file's services, as apply sends them. */
  desired: WorkspaceFile;
  /** The workspace revision the plan was made from: apply lands only while it is unchanged. */
  revision: string;
}

/** A published SDK version, or an MCP server's active version, whose calls of a service fail once a change disables it or moves it to another version. */
interface VersionBroken {
  kind: 'sdk' | 'mcp';
  name: string;
  version: string;
  versionId: string;
  service: string;
  /** The service version it calls. */
  calls: string;
  /** What the change leaves: the service disabled, or enabled at another version. */
  becomes: { disabled: true } | { version: string };
}

/**
 * The published SDK versions that call a service at the version a change disables or replaces:
 * their calls are refused (409 ENGINE_CONFLICT) from then on. Versions already broken stay out.
 */
async function findVersionsBroken(s: Session, changes: WorkspaceChange[]): Promise<VersionBroken[]> {
  const breaking = changes.filter((c) => c.action === '-' || (c.action === '~' && c.from!.version !== c.version));
  if (!breaking.length) return [];
  const { sdks } = await s.call(s.api.GET('/v1/sdks'));
  const broken: VersionBroken[] = [];
  const check = (kind: VersionBroken['kind'], v: { name: string; version: string; versionId: string; services: string[] }) => {
    for (const c of breaking) {
      const calls = c.action === '-' ? c.version : c.from!.version;
      if (!v.services.includes(`${c.service}=${calls}`)) continue;
      broken.push({ kind, name: v.name, version: v.version, versionId: v.versionId, service: c.service, calls, becomes: c.action === '-' ? { disabled: true } : { version: c.version } });
    }
  };
  for (const name of [...new Set(sdks.map((a) => a.name))].sort()) {
    const { versions } = await s.call(s.api.GET('/v1/sdks/{name}/versions', { params: { path: { name } } }));
    for (const v of versions) check('sdk', v);
  }
  // An MCP server serves its active version only: that is the one its agents would lose.
  const { servers } = await s.call(s.api.GET('/v1/mcp'));
  for (const v of servers.filter((m) => m.active).sort((a, b) => a.name.localeCompare(b.name))) check('mcp', v);
  return broken;
}

function describeBroken(b: VersionBroken): string {
  const change = 'disabled' in b.becomes ? `disabling ${b.service}` : `moving ${b.service} to ${b.becomes.version}`;
  const what = b.kind === 'sdk' ? `SDK app ${b.name} version ${b.version} (${b.versionId})` : `MCP server ${b.name} (active version ${b.version}, ${b.versionId})`;
  return `${what} calls ${b.service} ${b.calls}; after ${change} its calls fail (409 ENGINE_CONFLICT): publish a new version of it, or keep ${b.service} ${b.calls}`;
}

async function computePlan(s: Session, file: string | undefined): Promise<Plan> {
  const desired = readWorkspaceFile(file);
  if (!desired) {
    if (file) throw new CliError(`no workspace file at ${workingFile(WORKSPACE_FILE, file)}`, 'check the path given to --file, or create it with `svc-cli workspace service add <service> --version <version> --file <path>`');
    throw new CliError(`no ${WORKSPACE_FILE} in ${process.cwd()}`, 'select a service first with `svc-cli workspace service add <service> --version <version>`');
  }
  const { services: enabled, revision } = await workspaceState(s);
  const changes = diffWorkspace(desired, enabled);
  // Everything apply would send is checked first, so apply never stops half-way on a bad entry.
  const where = file ?? WORKSPACE_FILE;
  const sent = changes.filter((c) => c.action !== '-');
  // One catalog read for every entry, not one per entry.
  const catalog = sent.length ? (await s.call(s.api.GET('/v1/catalog/services', { params: { query: {} } }))).services : [];
  for (const c of sent) {
    checkBaseUrl(c.baseUrl, `${where}: ${c.service} baseUrl`);
    const entry = catalog.find((e) => e.name === c.service);
    if (!entry) throw new CliError(`${where}: unknown service '${c.service}'`, 'list services with `svc-cli workspace services list`, or remove it from the file');
    if (!entry.versions.some((v) => v.version === c.version)) {
      throw new CliError(`${where}: service '${c.service}' has no version '${c.version}' (available: ${entry.versions.map((v) => v.version).join(', ')})`, 'fix its version in the file');
    }
  }
  const versionsBroken = await findVersionsBroken(s, changes);
  if (!sent.length) return { changes, credentialsLeftBehind: [], versionsBroken, desired, revision };
  const { buckets } = await s.call(s.api.GET('/v1/buckets'));
  const secrets = buckets.find((b) => b.name === 'default')?.secrets ?? [];
  const catalogBaseUrl = (service: string, version: string) => catalog.find((e) => e.name === service)?.versions.find((v) => v.version === version)?.baseUrl;
  return { changes, credentialsLeftBehind: findCredentialsLeftBehind(sent, secrets, catalogBaseUrl), versionsBroken, desired, revision };
}

const nothing = (file: string | undefined) => `the workspace already matches ${file ?? WORKSPACE_FILE}`;

const fileOption = { type: 'string', requiresArg: true, describe: `workspace file (default ./${WORKSPACE_FILE})` } as const;

export const workspacePlan = defineCommand({
  command: 'plan',
  describe: `Preview the changes that apply would make to match ./${WORKSPACE_FILE}`,
  builder: (y) =>
    jsonOption(y.option('file', fileOption))
      .example('$0 workspace plan', 'show +/-/~ lines and a summary'),
  handler: async (argv) => {
    const s = session();
    const { changes, credentialsLeftBehind, versionsBroken } = await computePlan(s, argv.file);
    const summary = summarizeWorkspace(changes);
    if (argv.json) return printJson({ changes, summary, credentialsLeftBehind, versionsBroken });
    if (!changes.length) return print(`No changes: ${nothing(argv.file)}.`);
    for (const c of changes) print(planLine(c.action, describeWorkspaceChange(c)));
    print(`Plan: ${summary.enable} to enable, ${summary.change} to change, ${summary.disable} to disable.`);
    for (const l of credentialsLeftBehind) print(`Note: ${describeLeftBehind(l)}.`);
    for (const b of versionsBroken) print(`Note: ${describeBroken(b)}.`);
  },
});

export const workspaceApply = defineCommand({
  command: 'apply',
  describe: `Enable, change and disable services so the workspace matches ./${WORKSPACE_FILE}`,
  builder: (y) =>
    jsonOption(y.option('file', fileOption))
      .example('$0 workspace apply', 'apply the plan'),
  handler: async (argv) => {
    const s = session();
    const { changes, credentialsLeftBehind, versionsBroken, desired, revision } = await computePlan(s, argv.file);
    const summary = summarizeWorkspace(changes);
    if (changes.length) {
      progress(`applying ${changes.length} change${changes.length === 1 ? '' : 's'}`);
      // One request: every change lands at once, and only on the workspace this plan was made from
      // (another apply in between, from any replica, is a 409 and changes nothing).
      const services = Object.entries(desired.services).map(([name, want]) => ({ name, version: want.version, ...(want.baseUrl ? { baseUrl: want.baseUrl.replace(/\/+$/, '') } : {}) }));
      await s.call(s.api.PUT('/v1/workspace/services', { body: { services, revision } }), (f) => {
        if (f.status === 409) return 'run `svc-cli workspace plan` to see the workspace as it is now, then apply again';
        const at = /^services\[(\d+)\]/.exec(String(f.details?.field ?? ''));
        const service = at ? services[Number(at[1])]?.name : undefined;
        return f.status === 404 || f.status === 400 ? `fix ${service ?? 'the service'} in ${argv.file ?? WORKSPACE_FILE} (see \`svc-cli workspace services list\`)` : undefined;
      });
      if (!argv.json) for (const c of changes) print(planLine(c.action, describeWorkspaceChange(c)));
    }
    if (argv.json) return printJson({ changes, summary, credentialsLeftBehind, versionsBroken });
    if (!changes.length) return print(`Nothing to do: ${nothing(argv.file)}.`);
    print(`Applied: ${summary.enable} enabled, ${summary.change} changed, ${summary.disable} disabled.`);
    for (const l of credentialsLeftBehind) print(`Note: ${describeLeftBehind(l)}.`);
    for (const b of versionsBroken) print(`Note: ${describeBroken(b)}.`);
  },
});
