// HTML pages the Engine serves to people (sign-in, OAuth results), rendered from templates/pages.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Handlebars from 'handlebars';

const dir = resolve(import.meta.dirname, '../../templates/pages');
const compile = (name: string) => Handlebars.compile(readFileSync(resolve(dir, `${name}.hbs`), 'utf8'), { strict: false });
const layout = compile('layout');
const signin = compile('signin');
const result = compile('result');

/** Pages allow no scripts, inline styles only, and posting only back to the Engine. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export const signinPage = (data: { userCode?: string | undefined; username?: string | undefined; error?: string | undefined }) =>
  layout({ title: 'Sign in', body: signin({ username: 'owner', ...data }) });

export const resultPage = (data: { heading: string; message: string; ok: boolean }) =>
  layout({ title: data.heading, body: result({ ...data, tone: data.ok ? 'ok' : 'error' }) });
