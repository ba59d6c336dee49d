// `workspace services list` searches the catalog; `workspace service add|remove` edit
// ./svc.workspace.json; `workspace service import` adds an API that is not in the catalog.
import { readFileSync, statSync } from 'node:fs';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { EngineCallError, session, type Session } from '../../lib/engine.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { fileFlag } from '../../lib/files.ts';
import { plural, print, printJson, printTable, progress } from '../../lib/output.ts';
import { refuseBlank } from '../../lib/usage.ts';
import { WORKSPACE_FILE, currentDesired, enabledServices, writeWorkspaceFile } from './state.ts';

/** The Engine's request body cap, which an imported document must fit in. */
const MiB = 1024 * 1024;
const IMPORT_CAP = 32 * MiB;

const SERVICE = /^[a-z][a-z0-9-]{0,62}$/;
const VERSION = /^v[0-9]+$/;

function checkService(service: string) {
  if (!SERVICE.test(service)) throw new UsageError(`'${service}' is not a service name`, 'use lowercase letters, digits and dashes, starting with a letter (e.g. demo-crm)');
}
function checkVersion(version: string) {
  if (!VERSION.test(version)) throw new UsageError(`--version '${version}' is not a service version`, 'versions look like v1, v2, …');
}
/** A provider base URL as the Engine accepts it; `label` names where it came from in messages. */
export function checkBaseUrl(url: string | undefined, label = '--base-url') {
  if (url === undefined) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new UsageError(`${label} '${url}' is not an http(s) URL`, 'pass the provider API root, e.g. --base-url https://ghe.example.com/api/v3');
  }
  // Never echo it back: it may hold a password.
  if (parsed.username || parsed.password) throw new UsageError(`${label} must not carry credentials`, 'store credentials as a secret: svc-cli secret set <service> --value-stdin');
  if (url.includes('?') || url.includes('#')) throw new UsageError(`${label} '${url}' must not have a query or fragment`, 'operation paths are appended to it; pass the API root only');
  // The Engine's own rules (spec BaseUrl, catalog baseUrlProblem), so plan refuses what apply would.
  if (!/^https?:\/\//.test(url)) throw new UsageError(`${label} '${url}' must start with http:// or https:// (lower case)`, 'e.g. --base-url https://ghe.example.com/api/v3');
  if (/[\s"<>\\^`|]/.test(url)) throw new UsageError(`${label} '${url}' holds characters a URL cannot (spaces, quotes, <>, \\, ^, \`, |)`, 'percent-encode them, e.g. %20 for a space');
  if (url.includes('{') || url.includes('}')) throw new UsageError(`${label} '${url}' holds a {variable}`, 'give the URL with the value to use');
  if (url.length > 2048) throw new UsageError(`${label} is longer than 2048 characters`, 'pass the API root only');
  // The Engine's BaseUrl schema is `format: uri` (ajv-formats, RFC 3986): no raw non-ASCII, bad % escapes or [] in the path.
  if (!isUri(url)) {
    throw new UsageError(`${label} '${url}' is not a valid URI (RFC 3986)`, 'percent-encode other characters (%XX), write a non-ASCII host in its xn-- (punycode) form, and use [] only around an IPv6 address');
  }
}

const isUri = fullFormats.uri as (value: string) => boolean;

/** Usage checks shared by add and import: names, version and base URL as the Engine accepts them. */
function checkSelection(service: string, version: string, baseUrl: string | undefined) {
  checkService(service);
  checkVersion(version);
  checkBaseUrl(baseUrl);
}

async function catalogEntry(s: Session, service: string) {
  const { services } = await s.call(s.api.GET('/v1/catalog/services', { params: { query: { q: service } } }));
  return services.find((c) => c.name === service);
}

export const servicesList = defineCommand({
  command: 'list',
  describe: 'Search the services that can be enabled (bundled catalog and imported APIs)',
  builder: (y) =>
    jsonOption(y.option('query', { alias: 'q', type: 'string', requiresArg: true, describe: 'search text (name or title); --q and -q work too' }))
      .example('$0 workspace services list', 'every available service')
      .example('$0 workspace services list --query crm', 'services matching "crm"'),
  handler: async (argv) => {
    const s = session();
    const { services } = await s.call(s.api.GET('/v1/catalog/services', { params: { query: argv.query ? { q: argv.query } : {} } }));
    const enabled = new Map((await enabledServices(s)).map((e) => [e.name, e.version]));
    const isEnabled = (name: string, version: string) => enabled.get(name) === version;
    // The JSON says what the ENABLED column shows, per version.
    if (argv.json) return printJson({ services: services.map((svc) => ({ ...svc, versions: svc.versions.map((v) => ({ ...v, enabled: isEnabled(svc.name, v.version) })) })) });
    const rows = services.flatMap((svc) => svc.versions.map((v) => [svc.name, v.version, v.operations, v.source, isEnabled(svc.name, v.version) ? 'yes' : '', svc.title ?? '']));
    printTable(['SERVICE', 'VERSION', 'OPERATIONS', 'SOURCE', 'ENABLED', 'TITLE'], rows, argv.query ? `No service matches '${argv.query}'.` : 'No services available.');
  },
});

export const serviceAdd = defineCommand({
  command: 'add <service>',
  describe: `Select a service version in ./${WORKSPACE_FILE} (then plan and apply)`,
  builder: (y) =>
    y
      .positional('service', { type: 'string', demandOption: true, describe: 'service name, e.g. demo-crm' })
      .option('version', { type: 'string', demandOption: true, requiresArg: true, describe: 'service version, e.g. v1' })
      .option('base-url', { type: 'string', requiresArg: true, describe: "override the provider's base URL (tests, GitHub Enterprise)" })
      .option('file', { type: 'string', requiresArg: true, describe: `workspace file (default ./${WORKSPACE_FILE})` })
      .example('$0 workspace service add github --version v1', 'select github v1')
      .example('$0 workspace service add demo-crm --version v1 --base-url http://127.0.0.1:8790', 'select demo-crm pointed at a local provider'),
  handler: async (argv) => {
    checkSelection(argv.service, argv.version, argv.baseUrl);
    const s = session();
    const entry = await catalogEntry(s, argv.service);
    if (!entry) throw new CliError(`unknown service '${argv.service}'`, 'list services with `svc-cli workspace services list` or import one with `svc-cli workspace service import`');
    if (!entry.versions.some((v) => v.version === argv.version)) {
      throw new CliError(`service '${argv.service}' has no version '${argv.version}' (available: ${entry.versions.map((v) => v.version).join(', ')})`, 'pass one of those to --version');
    }
    const state = await currentDesired(s, argv.file);
    state.services[argv.service] = { version: argv.version, ...(argv.baseUrl ? { baseUrl: argv.baseUrl.replace(/\/+$/, '') } : {}) };
    const outcome = writeWorkspaceFile(state, argv.file);
    const target = `${argv.service}@${argv.version}${argv.baseUrl ? ` (base URL ${argv.baseUrl})` : ''}`;
    if (outcome === 'unchanged') return print(`${argv.file ?? WORKSPACE_FILE} already selects ${target}; nothing changed.`);
    const file = fileFlag(argv.file);
    print(`Selected ${target} in ${argv.file ?? WORKSPACE_FILE}. Preview with \`svc-cli workspace plan${file}\`, then enable it with \`svc-cli workspace apply${file}\`.`);
  },
});

export const serviceRemove = defineCommand({
  command: 'remove <service>',
  describe: `Drop a service from ./${WORKSPACE_FILE} (apply then disables it)`,
  builder: (y) =>
    y
      .positional('service', { type: 'string', demandOption: true, describe: 'service name' })
      .option('file', { type: 'string', requiresArg: true, describe: `workspace file (default ./${WORKSPACE_FILE})` })
      .example('$0 workspace service remove github', 'stop using github once applied'),
  handler: async (argv) => {
    checkService(argv.service);
    const s = session();
    const state = await currentDesired(s, argv.file);
    if (!(argv.service in state.services)) {
      writeWorkspaceFile(state, argv.file);
      return print(`${argv.file ?? WORKSPACE_FILE} does not select ${argv.service}; nothing changed.`);
    }
    delete state.services[argv.service];
    writeWorkspaceFile(state, argv.file);
    print(`Removed ${argv.service} from ${argv.file ?? WORKSPACE_FILE}. \`svc-cli workspace apply${fileFlag(argv.file)}\` disables it.`);
  },
});

export const serviceImport = defineCommand({
  command: 'import <file>',
  describe: 'Import an API that is not in the catalog from an OpenAPI 3.x file (JSON or YAML)',
  builder: (y) =>
    jsonOption(
      y
        .positional('file', { type: 'string', demandOption: true, describe: 'the OpenAPI document' })
        .option('name', { type: 'string', demandOption: true, requiresArg: true, describe: 'service name to give it' })
        .option('version', { type: 'string', demandOption: true, requiresArg: true, describe: 'service version, e.g. v1' })
        .option('base-url', { type: 'string', requiresArg: true, describe: "the API's base URL (default: the document's first server)" })
        .option('auth-header', { type: 'string', requiresArg: true, conflicts: 'auth-query', describe: 'API key sent in this header (the secret comes from `secret set`)' })
        .option('auth-query', { type: 'string', requiresArg: true, describe: 'API key sent in this query parameter' })
        .option('auth-prefix', { type: 'string', requiresArg: true, describe: "text before the key, e.g. 'Bearer '" })
        .option('idempotency-header', { type: 'string', requiresArg: true, describe: "the provider honours an idempotency key in this header, e.g. 'Idempotency-Key'" })
        .option('max-attempts', { type: 'number', requiresArg: true, describe: 'attempts of one provider request, 1 to 10 (default 3; 1 never retries)' }),
    )
      .example('$0 workspace service import petstore.yaml --name petstore --version v1 --auth-header X-Api-Key', 'import with an API key header')
      .example("$0 workspace service import api.json --name acme --version v1 --auth-header Authorization --auth-prefix 'Bearer '", 'bearer-style key')
      .example('$0 workspace service import payments.yaml --name pay --version v1 --idempotency-header Idempotency-Key --max-attempts 4', 'a provider that honours idempotency keys'),
  handler: async (argv) => {
    checkSelection(argv.name, argv.version, argv.baseUrl);
    // An empty name (an unset shell variable) would import a version without auth, and it can never change.
    refuseBlank('--auth-header', argv.authHeader, 'name the header that carries the API key (e.g. X-Api-Key), or leave --auth-header out');
    refuseBlank('--auth-query', argv.authQuery, 'name the query parameter that carries the API key (e.g. api_key), or leave --auth-query out');
    refuseBlank('--idempotency-header', argv.idempotencyHeader, 'name the header in which the provider takes an idempotency key (e.g. Idempotency-Key), or leave --idempotency-header out');
    if (argv.maxAttempts !== undefined && !(Number.isInteger(argv.maxAttempts) && argv.maxAttempts >= 1 && argv.maxAttempts <= 10)) {
      throw new UsageError('--max-attempts must be a whole number from 1 to 10', 'e.g. --max-attempts 3 (1 never retries)');
    }
    if (argv.authPrefix !== undefined && argv.authHeader === undefined && argv.authQuery === undefined) {
      throw new UsageError('--auth-prefix needs --auth-header or --auth-query', 'say where the API key goes, e.g. --auth-header Authorization');
    }
    // The Engine refuses a request body past 32 MiB; a larger document is refused here, by name,
    // before sending it (the Engine may close the connection while the CLI still writes).
    const tooLarge = () => new CliError(`${argv.file} is larger than the Engine's ${IMPORT_CAP / MiB} MiB import cap`, 'split the description, or leave out what the services do not need (examples, long descriptions)');
    let size: number;
    try {
      size = statSync(argv.file).size;
    } catch (err) {
      throw new CliError(`cannot read ${argv.file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'pass the path of an OpenAPI 3.x document');
    }
    if (size > IMPORT_CAP) throw tooLarge();
    let document: string;
    try {
      document = readFileSync(argv.file, 'utf8');
    } catch (err) {
      throw new CliError(`cannot read ${argv.file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'pass the path of an OpenAPI 3.x document');
    }
    const authName = argv.authHeader ?? argv.authQuery;
    const auth =
      authName !== undefined
        ? { type: 'api_key' as const, in: argv.authHeader !== undefined ? ('header' as const) : ('query' as const), name: authName, ...(argv.authPrefix !== undefined ? { prefix: argv.authPrefix } : {}) }
        : undefined;
    // The Engine's refusal of a field filled from a flag is told as that flag (exit 2).
    const flags: Record<string, string> = {
      name: '--name',
      version: '--version',
      'auth.name': argv.authHeader !== undefined ? '--auth-header' : '--auth-query',
      'auth.prefix': '--auth-prefix',
      ...(argv.baseUrl !== undefined ? { baseUrl: '--base-url' } : {}),
      'idempotency.header': '--idempotency-header',
      'retry.maxAttempts': '--max-attempts',
    };
    const s = session();
    progress(`importing ${argv.file}`);
    let imported;
    try {
      imported = await s.call(
        s.api.POST('/v1/workspace/imports', {
          body: {
            name: argv.name,
            version: argv.version,
            document,
            ...(argv.baseUrl ? { baseUrl: argv.baseUrl } : {}),
            ...(auth ? { auth } : {}),
            ...(argv.idempotencyHeader !== undefined ? { idempotency: { header: argv.idempotencyHeader } } : {}),
            ...(argv.maxAttempts !== undefined ? { retry: { maxAttempts: argv.maxAttempts } } : {}),
          },
        }),
        (f) => (f.status === 400 ? `fix ${argv.file} or the flags and import again` : undefined),
        flags,
      );
    } catch (err) {
      if (err instanceof EngineCallError && err.failure.status === 413) throw tooLarge();
      // Without --base-url the address comes from the document's servers (one with a bad address is refused).
      if (err instanceof EngineCallError && argv.baseUrl === undefined && err.failure.status === 400 && err.failure.details?.field === 'baseUrl') {
        const what = /servers\[0\]/.test(err.failure.message)
          ? `${argv.file} has no absolute server URL (its first server is missing or relative)`
          : `${argv.file}: the base URL of its first server ${err.failure.message.replace(/^baseUrl:?\s*/, '')}`;
        throw new CliError(what, "pass the API's base URL with --base-url, e.g. --base-url https://api.example.com/v1");
      }
      throw err;
    }
    if (argv.json) return printJson(imported);
    const v = imported.versions.find((x) => x.version === argv.version) ?? imported.versions[0];
    print(`Imported ${imported.name}@${argv.version} (${plural(v?.operations ?? 0, 'operation')}${v?.baseUrl ? `, base URL ${v.baseUrl}` : ''}).`);
    for (const o of v?.omitted ?? []) print(`Left out ${o.operationId}: ${o.reason} (${o.field}).`);
    for (const w of v?.warnings ?? []) print(`Warning: ${w.operationId}: ${w.reason} (${w.field}).`);
    // A description naming no absolute server imports without a base URL: selecting it needs one.
    const address = v?.baseUrl ? '' : " --base-url <the API's base URL>";
    print(`Select it with \`svc-cli workspace service add ${imported.name} --version ${argv.version}${address}\`, then \`svc-cli workspace apply\`.`);
  },
});
