// `svc-cli auth credentials list|revoke`.
import { defineGroup } from '../../../lib/command.ts';
import { credentialsList } from './list.ts';
import { credentialsRevoke } from './revoke.ts';

export const credentials = defineGroup('credentials', 'List and revoke CLI credentials (each grants full access to the Engine)', [credentialsList, credentialsRevoke], [
  ['$0 auth credentials list', 'live CLI credentials'],
  ['$0 auth credentials revoke tok_01J…', 'revoke one'],
]);
