// What a refusal tells a person: which connection, and the svc-cli command that fixes it.
import { EngineError } from '../envelope/index.ts';
import { shellWord } from '../shell/index.ts';
import type { ConnectionRow } from '../store/index.ts';
import { DEFAULT_AUTH_NAME } from './types.ts';

/** `--name value`, or `--name=value` when the value starts with a dash (read as an option otherwise). */
const shellFlag = (name: string, value: string) => `--${name}${value.startsWith('-') ? '=' : ' '}${shellWord(value)}`;

/**
 * The command that (re-)consents one connection, to paste into a shell: it names the connection's
 * auth unless that is the default one, and quotes what a shell would split or interpret (an end
 * user reference is the app's own string: it may hold spaces or metacharacters).
 */
export const connectCommand = (c: Pick<ConnectionRow, 'service' | 'endUserRef' | 'authName'>) =>
  [`svc-cli connection create ${shellWord(c.service)}`, shellFlag('end-user', c.endUserRef), ...(c.authName === DEFAULT_AUTH_NAME ? [] : [shellFlag('auth-name', c.authName)])].join(' ');

/** The connection a call started with was deleted (and perhaps made again) while the call ran. */
export const goneDuringCall = (row: ConnectionRow) =>
  new EngineError(
    'ENGINE_CREDENTIAL_MISSING',
    `the ${row.service} connection of '${row.endUserRef}' was deleted while the call refreshed its access token; send the call again, or run \`${connectCommand(row)}\` if it is not connected any more`,
    { retryable: true },
  );

/** "the demo-crm connection of 'alice'", naming the auth when it is not the default one. */
export const connectionLabel = (c: Pick<ConnectionRow, 'service' | 'endUserRef' | 'authName'>) =>
  `the ${c.service} connection ${c.authName === DEFAULT_AUTH_NAME ? '' : `'${c.authName}' `}of '${c.endUserRef}'`;

export const needsReauth = (row: ConnectionRow) =>
  new EngineError('ENGINE_CREDENTIAL_REFRESH_FAILED', `${connectionLabel(row)} needs re-authorisation; run \`${connectCommand(row)}\``);
