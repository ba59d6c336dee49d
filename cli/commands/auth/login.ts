// `svc-cli login` (also `svc-cli auth login`): the OAuth 2.0 device authorization flow (RFC 8628)
// against the Engine's sign-in page, or `--with-token` for automation. The credential goes straight
// from the Engine to the credentials file; it never passes through the browser and is never printed.
import { setTimeout as sleep } from 'node:timers/promises';
import { openInBrowser } from '../../lib/browser.ts';
import { defineCommand } from '../../lib/command.ts';
import { credentialsFile, engineUrl, saveCredential } from '../../lib/credentials.ts';
import { engineClient, transportError, unwrap } from '../../lib/engine.ts';
import { CliError, UsageError } from '../../lib/errors.ts';
import { lifetimeSeconds } from '../../lib/expires.ts';
import { print, progress } from '../../lib/output.ts';
import { readSecretFromStdin } from '../../lib/stdin.ts';
import { refuseInsecure } from '../../lib/transport.ts';

const CLIENT_ID = 'svc-cli';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** The longest `--expires` the Engine accepts (365 days). */
const MAX_LIFETIME_S = 365 * 86_400;

function saved(url: string, token: string, subject: string, expiresAt: string | null) {
  saveCredential(url, { token, subject, savedAt: new Date().toISOString(), expiresAt });
  print(`Logged in to ${url} as ${subject}. The credential expires ${expiresAt ?? 'never'} and is stored in ${credentialsFile()}.`);
}

async function loginWithToken(url: string) {
  const token = await readSecretFromStdin('CLI credential', '`svc-engine credential create --subject <you> | svc-cli login --with-token`');
  if (!/^svc_cli_[\x21-\x7e]+$/.test(token)) {
    throw new CliError('standard input does not hold a CLI credential (they start with svc_cli_)', 'create one on the Engine host with `svc-engine credential create --subject <you>`');
  }
  const who = await unwrap(url, engineClient(url, token).GET('/v1/auth/whoami'), { credential: { token, source: 'stdin' } });
  saved(url, token, who.subject, who.expiresAt ?? null);
}

async function deviceLogin(url: string, browser: boolean, lifetime: number | undefined) {
  // The device code polled with, and the credential it is answered with, are secrets too.
  refuseInsecure(url, { secret: 'a sign-in (the device code, and the CLI credential it is answered with)' });
  const api = engineClient(url);
  const body = { client_id: CLIENT_ID, ...(lifetime !== undefined ? { credential_expires_in: lifetime } : {}) };
  const device = await unwrap(url, api.POST('/v1/auth/device', { body }));
  print(`To sign in, approve the code ${device.user_code} on the Engine's sign-in page.`);
  await openInBrowser(device.verification_uri_complete, browser);
  let interval = Math.max(device.interval, 1) * 1000;
  const deadline = Date.now() + device.expires_in * 1000;
  progress('waiting for approval on the sign-in page');
  for (;;) {
    await sleep(interval);
    let answer;
    try {
      answer = await api.POST('/v1/auth/token', { body: { grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: CLIENT_ID } });
    } catch (err) {
      throw transportError(url, err);
    }
    if (answer.data) return saved(url, answer.data.access_token, answer.data.subject, new Date(Date.now() + answer.data.expires_in * 1000).toISOString());
    const code = answer.response.status === 400 ? (answer.error as { error?: string } | undefined)?.error : undefined;
    switch (code) {
      case 'authorization_pending':
        if (Date.now() > deadline) throw expired();
        continue;
      case 'slow_down':
        interval += 5000; // RFC 8628 §3.5
        continue;
      case 'access_denied':
        throw new CliError('the sign-in was denied on the sign-in page', 'run `svc-cli login` again and approve it');
      case 'expired_token':
        throw expired();
      case 'invalid_grant':
        throw new CliError('the Engine no longer knows this sign-in request', 'run `svc-cli login` again');
      default: {
        // Another OAuth error (RFC 6749 §5.2) names itself; anything else is the Engine's envelope.
        const oauth = answer.error as { error?: unknown; error_description?: unknown } | undefined;
        if (code && typeof oauth?.error_description === 'string') throw new CliError(`the Engine refused the sign-in: ${oauth.error_description}`, 'run `svc-cli login` again');
        await unwrap(url, Promise.resolve(answer));
        throw new CliError(`unexpected answer from the Engine (HTTP ${answer.response.status})`, 'run `svc-cli login` again');
      }
    }
  }
}

const expired = () => new CliError('the sign-in code expired before it was approved', 'run `svc-cli login` again and approve it on the sign-in page in time');

export const login = defineCommand({
  command: 'login',
  describe: 'Sign in to the Engine (opens its sign-in page) and store a CLI credential',
  builder: (y) =>
    y
      .option('browser', { type: 'boolean', default: true, describe: 'open the sign-in page in a browser; --no-browser prints the URL instead' })
      .option('with-token', { type: 'boolean', default: false, describe: 'read a CLI credential from standard input (automation)' })
      .option('expires', { type: 'string', requiresArg: true, describe: 'how long the credential lives: 30m, 24h, 30d, up to 365d, or an ISO-8601 date-time (default 90d)' })
      .example('$0 login', 'open the sign-in page and wait for approval')
      .example('$0 login --no-browser', 'print the sign-in URL and code instead of opening a browser')
      .example('$0 login --expires 7d', 'a credential that stops working in a week')
      .example('svc-engine credential create --subject ci | $0 login --with-token', 'store a credential created on the Engine host'),
  handler: async (argv) => {
    if (argv.withToken && argv.expires !== undefined) {
      throw new UsageError('--expires applies to a sign-in, not to --with-token', 'a credential from `svc-engine credential create` expires as set there (its --expires)');
    }
    const lifetime = argv.expires === undefined ? undefined : lifetimeSeconds(argv.expires, MAX_LIFETIME_S);
    const url = engineUrl();
    if (argv.withToken) await loginWithToken(url);
    else await deviceLogin(url, argv.browser, lifetime);
  },
});
