// svc-cli sends a credential over plain HTTP only to this machine (a loopback SVC_ENGINE_URL):
// to any other host, anyone on the network path could read it, unless the user says the path is
// trusted with --allow-insecure.
import { isLoopbackHost } from '../../src/config/transport.ts';
import { displayUrl } from './credentials.ts';
import { CliError } from './errors.ts';

let allowInsecure = false;

/** `--allow-insecure` (true) lets credentials go to a non-loopback http:// URL for the rest of the command. */
export function setAllowInsecure(allowed: boolean): void {
  allowInsecure = allowed;
}

/** What a bearer value is, as the refusal names it (never the value itself). */
const credentialName = (bearer: string) =>
  bearer.startsWith('svc_cli_') ? 'the CLI credential' : bearer.startsWith('svc_sdk_') ? 'the SDK execution token' : bearer.startsWith('svc_mcp_') ? 'the MCP token' : 'a credential';

/**
 * Refuses, before anything is sent, to send `what` (a bearer value, or a description of the
 * secret a request carries) to `url` over plain HTTP on another host, unless --allow-insecure was given.
 */
export function refuseInsecure(url: string, what: { bearer: string } | { secret: string }): void {
  const parsed = new URL(url);
  if (allowInsecure || parsed.protocol !== 'http:' || isLoopbackHost(parsed.hostname)) return;
  const name = 'bearer' in what ? credentialName(what.bearer) : what.secret;
  throw new CliError(
    `refusing to send ${name} to ${displayUrl(url)} over plain HTTP: it is not this machine, so anyone on the network path could read it`,
    'use the https:// address of the Engine in SVC_ENGINE_URL, or pass --allow-insecure if the network between you is trusted',
  );
}
