// HTML pages the Engine serves to people (sign-in, OAuth results, MCP clients' consent), rendered from templates/pages.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { TemplateDelegate } from 'handlebars';

const dir = resolve(import.meta.dirname, '../../templates/pages');
type Templates = { layout: TemplateDelegate; signin: TemplateDelegate; result: TemplateDelegate; consent: TemplateDelegate };
let templates: Templates | undefined;
/** Handlebars loads and the templates compile on the first page served, not at start. */
function pages(): Templates {
  if (!templates) {
    const Handlebars = createRequire(import.meta.url)('handlebars') as typeof import('handlebars');
    const compile = (name: string) => Handlebars.compile(readFileSync(resolve(dir, `${name}.hbs`), 'utf8'), { strict: false });
    templates = { layout: compile('layout'), signin: compile('signin'), result: compile('result'), consent: compile('consent') };
  }
  return templates;
}

/** Pages allow no scripts, inline styles only, and posting only back to the Engine. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // same-origin (not no-referrer): browsers then send the page's real Origin with its form post,
  // which the handler compares; with no-referrer they send `Origin: null`, like a sandboxed frame.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** Who asked for a pending sign-in, as the approval page shows it. */
export interface SigninRequestView {
  /** The address the request came from, and whether it is the address of the browser looking at the page. */
  from: string;
  sameAddress: boolean;
  browser: string;
  agent: string;
  at: string;
  /** How long the credential will live once approved (`90 days`). */
  lifetime: string;
}

/** With `request`, the approval form for that pending code; without, the step that asks for a code. */
export const signinPage = (data: { userCode?: string | undefined; username?: string | undefined; error?: string | undefined; request?: SigninRequestView | undefined }) =>
  pages().layout({ title: 'Sign in', body: pages().signin({ username: 'owner', ...data }) });

export const resultPage = (data: { heading: string; message: string; ok: boolean }) =>
  pages().layout({ title: data.heading, body: pages().result({ ...data, tone: data.ok ? 'ok' : 'error' }) });

/** What the consent page shows an MCP client's request with, and the form fields that carry it back. */
export interface ConsentView {
  clientName: string;
  /** Where the client's metadata came from: its document's host, or `registered here`. */
  clientSource: string;
  redirectHost: string;
  /** The redirect URI is on this machine: any local program could be listening there. */
  loopback: boolean;
  serverName: string;
  serverVersion: string;
  serverUrl: string;
  operations: { index: number; id: string; checked: boolean }[];
  lifetimes: { value: string; label: string; selected: boolean }[];
  fields: { name: string; value: string }[];
  username: string;
  error?: string | undefined;
}

export const consentPage = (data: ConsentView) => pages().layout({ title: `Allow ${data.clientName}`, body: pages().consent(data) });

/**
 * The consent page's headers: a page's, except that its form may also lead to the client's
 * redirect origin, where an approval or denial sends the browser (browsers apply form-action to
 * the redirect that follows a form post).
 */
export const consentHeaders = (redirectOrigin: string): Record<string, string> => ({
  ...PAGE_HEADERS,
  'content-security-policy': PAGE_HEADERS['content-security-policy'].replace("form-action 'self'", `form-action 'self' ${redirectOrigin}`),
});
