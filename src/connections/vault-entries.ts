// Where connections keep their secrets in the vault: a service's OAuth client under its own name
// (`<service>#oauth-client`), each connection's tokens sealed under a context naming the connection.
import type { ConnectionRow } from '../store/index.ts';

export const oauthClientKey = (service: string) => `${service}#oauth-client`;
/** The service a vault entry belongs to: its own name, or that of the service whose OAuth client it holds. */
export const serviceOfVaultEntry = (name: string) => name.replace(/#oauth-client$/, '');
export const sealContext = (c: Pick<ConnectionRow, 'service' | 'endUserRef' | 'authName'>) => `connection/${c.service}/${c.endUserRef}/${c.authName}`;

