// `svc-cli auth …`: sign-in (also at the top level: `svc-cli login`, `logout`, `whoami`) and the
// CLI credentials it issues.
import { defineGroup } from '../../lib/command.ts';
import { credentials } from './credentials/index.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { whoami } from './whoami.ts';

export const auth = defineGroup('auth', 'Sign in and out, and list or revoke CLI credentials', [login, logout, whoami, credentials], [
  ['$0 auth login --expires 30d', 'sign in with a credential that lives 30 days'],
  ['$0 auth credentials list', 'see every live CLI credential'],
]);
