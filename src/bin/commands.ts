// svc-engine: run the Engine (`serve`), the Engine plus the demo provider (`dev`), or manage
// CLI credentials on the Engine host (`credential create|revoke`).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { ConfigError, intFrom, loadConfig, type EngineConfig } from '../config/index.ts';
import { startEngine, type Engine } from '../engine/index.ts';
import { Tokens } from '../identity/index.ts';
import { openStore } from '../store/index.ts';

const SUBJECT = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

/**
 * SIGINT/SIGTERM stop gracefully: the Engine drains requests in flight (up to the execute budget
 * plus a margin) before it closes, then the process exits 0. A second signal exits at once (1).
 */
function onSignals(engine: Engine, stop: () => Promise<void>) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        engine.deps.log.warn({ signal }, 'second signal while stopping: exiting without waiting');
        process.exit(1);
      }
      stopping = true;
      engine.deps.log.info({ signal }, 'stopping: draining requests in flight (a second signal exits at once)');
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          engine.deps.log.error({ err }, 'stopping failed');
          process.exit(1);
        },
      );
    });
  }
}

/** DATABASE_URL, checked before anything connects; never echoed, as it may hold a password. */
function databaseUrl(): string | undefined {
  const raw = process.env.DATABASE_URL;
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (check the host, port and any escaping in the password)');
  }
  return raw;
}

function config(env: NodeJS.ProcessEnv = process.env): EngineConfig & { databaseUrl: string | undefined } {
  return orConfigExit(() => ({ ...loadConfig(env), databaseUrl: databaseUrl() }));
}

/**
 * `dev` runs demo-crm on SVC_HOST, so its Engine may call loopback and that address unless
 * SVC_EGRESS_ALLOW says otherwise (`serve` allows no private address by default: src/egress).
 */
function devEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.SVC_EGRESS_ALLOW?.trim()) return env;
  const host = (env.SVC_HOST || '127.0.0.1').replace(/^\[|\]$/g, '');
  const ranges = ['127.0.0.0/8', '::1/128', ...(isIP(host) ? [host] : [])];
  return { ...env, SVC_EGRESS_ALLOW: ranges.join(',') };
}

/** A setting read now: a ConfigError is one line naming it, exit 2. */
function orConfigExit<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`svc-engine: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

/** Printed to the operator's terminal only, never logged. */
function announceSigninCode(engine: Engine) {
  if (engine.signinCode) {
    process.stderr.write(`One-time sign-in code for the owner account: ${engine.signinCode} (valid 24 h, single use; set SVC_OWNER_PASSWORD to use a password instead)\n`);
  }
}

/**
 * What an operator can fix about a failed start (a port in use, a data dir or database that cannot
 * be used, a master key that does not fit), as one line naming the setting; undefined for anything
 * else, which is a fault of the Engine and keeps its stack.
 */
function operatorProblem(err: unknown, cfg: EngineConfig & { databaseUrl: string | undefined }, extra: { demoPort?: number } = {}): string | undefined {
  const e = err as NodeJS.ErrnoException & { hostname?: string; severity?: string };
  const code = e.code;
  const cause = `${e.message}`.split('\n')[0] ?? '';
  if (err instanceof ConfigError || e.name === 'MasterKeyError' || e.name === 'UnreachableError') return cause;
  if (code === 'EADDRINUSE' || /EADDRINUSE/.test(cause)) {
    return extra.demoPort !== undefined ? `SVC_DEMO_PORT ${extra.demoPort} is already in use: ${cause}` : `a port is already in use (SVC_HTTP_PORT ${cfg.httpPort}, SVC_GRPC_PORT ${cfg.grpcPort}): ${cause}`;
  }
  if (code === 'EADDRNOTAVAIL' || e.hostname === cfg.host) return `SVC_HOST ${cfg.host} cannot be listened on: ${cause}`;
  if (code === 'ENOTDIR' || code === 'EACCES' || code === 'EROFS' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOENT' || code === 'ENOSPC' || code === 'EDQUOT') return `SVC_DATA_DIR ${cfg.dataDir} cannot be used: ${cause}`;
  if (e.name === 'SqliteError' || e.name === 'StoreVersionError') return cfg.databaseUrl ? `DATABASE_URL cannot be used: ${cause}` : `SVC_DATA_DIR ${cfg.dataDir}: engine.db cannot be used: ${cause}`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EAI_AGAIN' || code === 'ECONNRESET') {
    return `a database or Redis could not be reached (DATABASE_URL, REDIS_URL): ${cause}`;
  }
  // PostgreSQL's own refusals carry a SQLSTATE (3D000: no such database, 28P01: wrong password);
  // pg's connection timeout carries none.
  if (cfg.databaseUrl && ((typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) || /^Connection terminated/.test(cause))) {
    return `DATABASE_URL cannot be used: ${cause}`;
  }
  return undefined;
}

/** Runs a command's start-up, turning what the operator can fix into one line and exit 2. */
async function orExit<T>(cfg: EngineConfig & { databaseUrl: string | undefined }, run: () => Promise<T>, extra: { demoPort?: number } = {}): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const problem = operatorProblem(err, cfg, extra);
    if (problem === undefined) throw err;
    console.error(`svc-engine: ${problem}`);
    process.exit(2);
  }
}

/** Starts the Engine; what an operator can fix is one line naming the setting, exit 2. */
function start(cfg: EngineConfig & { databaseUrl: string | undefined }): Promise<Engine> {
  return orExit(cfg, () => startEngine(cfg, { databaseUrl: cfg.databaseUrl }));
}

async function serve() {
  const cfg = config();
  const engine = await start(cfg);
  announceSigninCode(engine);
  onSignals(engine, () => engine.stop());
}

/** demo-crm's API key and OAuth client secret live in the data dir so restarts keep them. */
function demoSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = `demo_${crypto.randomUUID().replace(/-/g, '')}`;
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

const DEMO_OAUTH_CLIENT = 'svc-engine-dev';

async function dev() {
  const cfg = config(devEnv(process.env));
  const { startDemoProvider } = await import('../demo-provider/index.ts');
  const demoPort = orConfigExit(() => intFrom(process.env, 'SVC_DEMO_PORT', 8790, 0, 65535));
  // A blank key is unset: an empty one would let any request in without a credential.
  const demoKey = process.env.SVC_DEMO_API_KEY?.trim() || undefined;
  const demo = await orExit(
    cfg,
    () =>
      startDemoProvider({
        host: cfg.host,
        port: demoPort,
        apiKey: demoKey ?? demoSecret(cfg.dataDir, 'demo-crm.key'),
        oauth: { clients: { [DEMO_OAUTH_CLIENT]: demoSecret(cfg.dataDir, 'demo-crm-oauth.secret') } },
      }),
    { demoPort },
  );
  let engine: Engine;
  try {
    engine = await start(cfg);
  } catch (err) {
    await demo.stop();
    throw err;
  }
  // Consent redirects only to a registered URI, as at a real provider: the Engine's callback, wherever it is reached.
  demo.oauth.redirectUris.push(engine.deps.connections.callbackUrl());
  const current = await engine.deps.workspace.get('demo-crm');
  if (!current || current.baseUrl !== demo.url) await engine.deps.workspace.enable('demo-crm', 'v1', demo.url);
  console.log(
    [
      '',
      `svc-engine is running (embedded store in ${cfg.dataDir})`,
      `  Engine HTTP      ${engine.url}`,
      `  REST execution   ${engine.url}/v1/apps/<version_id>/executions`,
      `  gRPC execution   ${engine.grpcUrl}  (typed packages: \`svc-cli sdk apply --download\`)`,
      `  demo-crm         ${demo.url}  (enabled in the workspace as demo-crm@v1)`,
      `  demo-crm API key ${demo.apiKey}  (${demoKey ? 'from SVC_DEMO_API_KEY' : `also in ${join(cfg.dataDir, 'demo-crm.key')}`})`,
      `  demo-crm OAuth   client id ${DEMO_OAUTH_CLIENT}, secret in ${join(cfg.dataDir, 'demo-crm-oauth.secret')}`,
      `  sign-in page     ${engine.url}/signin`,
      '',
      'Next: `svc-cli login` and follow the README walkthrough. Ctrl-C stops both.',
      '',
    ].join('\n'),
  );
  announceSigninCode(engine);
  onSignals(engine, async () => {
    await engine.stop();
    await demo.stop();
  });
}

/** `credential create --expires`: 30m, 12h, 90d or never; the expiry (null: never), undefined when unreadable. */
function expiryOf(text: string, now = Date.now()): string | null | undefined {
  if (text.trim() === 'never') return null;
  const m = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  if (!m) return undefined;
  return new Date(now + Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd']).toISOString();
}

async function credentialCreate(subject: string, expiresAt: string | null) {
  const cfg = config();
  const store = await orExit(cfg, () => openStore({ dataDir: cfg.dataDir, databaseUrl: cfg.databaseUrl, poolSize: cfg.dbPoolSize }));
  try {
    const { token, row } = await new Tokens(store).issue('cli', subject, { expiresAt });
    // The one place a credential is printed: on the Engine host, to its operator, for automation.
    process.stdout.write(`${token}\n`);
    process.stderr.write(`created CLI credential ${row.id} for ${subject}, expiring ${row.expiresAt ?? 'never'}; pipe it to \`svc-cli login --with-token\`\n`);
  } finally {
    await store.close();
  }
}

async function credentialRevoke(id: string) {
  const cfg = config();
  if (id.startsWith('svc_')) {
    // A credential's value, not its ID: never echoed.
    console.error('svc-engine: that is a credential value, not its ID; the ID (tok_…) was printed when it was created');
    process.exitCode = 2;
    return;
  }
  const store = await orExit(cfg, () => openStore({ dataDir: cfg.dataDir, databaseUrl: cfg.databaseUrl, poolSize: cfg.dbPoolSize }));
  try {
    if (!(await new Tokens(store).revoke(id))) {
      console.error(`svc-engine: no live credential ${id}`);
      process.exitCode = 1;
    } else console.log(`revoked ${id}`);
  } finally {
    await store.close();
  }
}

// `serve` and `dev` alone start at once: the argument parser (and its help formatting) loads only
// for the other commands, `--help` and mistakes — it would add to every cold start.
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === 'serve') await serve();
else if (args.length === 1 && args[0] === 'dev') await dev();
else await parseCommandLine();

async function parseCommandLine() {
  const { default: yargs } = await import('yargs');
  const { hideBin } = await import('yargs/helpers');
  await yargs(hideBin(process.argv))
    .scriptName('svc-engine')
    .usage('$0 <command>\n\nRuns the svc-engine server and manages it on its host.')
    .command('serve', 'Run the Engine (HTTP on SVC_HTTP_PORT, gRPC on SVC_GRPC_PORT, data in SVC_DATA_DIR).', {}, serve)
    .command('dev', 'Run the Engine plus the bundled demo-crm provider on loopback.', {}, dev)
    .command('credential', 'Manage CLI credentials on the Engine host.', (y) =>
      y
        .command(
          'create',
          'Print a new CLI credential for a subject (for automation; pipe it to `svc-cli login --with-token`).',
          (c) =>
            c
              .option('subject', { type: 'string', demandOption: true, describe: 'who the credential acts as' })
              .option('expires', { type: 'string', default: '90d', describe: 'how long it lives: 30m, 12h, 90d, or never (it grants full access)' }),
          (argv) => {
            if (!SUBJECT.test(argv.subject)) {
              console.error('svc-engine: --subject must be 1-128 letters, digits, or . _ @ -');
              process.exit(2);
            }
            const expiresAt = expiryOf(argv.expires);
            if (expiresAt === undefined) {
              console.error('svc-engine: --expires must be a number of minutes, hours or days (30m, 12h, 90d) or never');
              process.exit(2);
            }
            return credentialCreate(argv.subject, expiresAt);
          },
        )
        .command(
          'revoke <id>',
          'Revoke a CLI credential by its ID (tok_…).',
          (c) => c.positional('id', { type: 'string', demandOption: true }),
          (argv) => credentialRevoke(argv.id),
        )
        .demandCommand(1)
        .example('$0 credential create --subject ci-bot | svc-cli login --with-token', 'log a CI job in'),
    )
    .example('$0 dev', 'Engine on 127.0.0.1:8700 and demo-crm on 127.0.0.1:8790')
    .example('SVC_DATA_DIR=/var/lib/svc $0 serve', 'run the Engine with its data elsewhere')
    .demandCommand(1)
    .strict()
    .fail((msg, err) => {
      if (err) throw err;
      console.error(`svc-engine: ${msg}\nRun \`svc-engine --help\` for usage.`);
      process.exit(2);
    })
    .help()
    .parseAsync();
}
