// OAuth helpers for tests: demo-crm's consent completed over plain HTTP, a stored access token made
// to look expired, and a fake provider's authorization endpoint that approves at once.
import type { ServerResponse } from 'node:http';
import type { TestEngine } from './engine.ts';

/** Completes demo-crm's consent as a browser would: open the consent page, submit it, follow the redirect to the Engine's callback. */
export async function consent(authorizeUrl: string, account: string, decision: 'allow' | 'deny' = 'allow'): Promise<{ status: number; html: string }> {
  const page = await fetch(authorizeUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}`);
  const html = await page.text();
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1]!, m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))));
  }
  fields.set('account', account);
  fields.set('decision', decision);
  const submitted = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  const location = submitted.headers.get('location');
  if (!location) throw new Error(`consent did not redirect (${submitted.status})`);
  const callback = await fetch(location);
  return { status: callback.status, html: await callback.text() };
}

/** Makes the stored access token of a demo-crm connection look expired, so the next call refreshes it. */
export async function expireAccessToken(t: TestEngine, endUserRef: string, authName = 'default'): Promise<void> {
  const row = await t.engine.store.getConnection('demo-crm', endUserRef, authName);
  if (!row) throw new Error(`no demo-crm connection for '${endUserRef}' (${authName})`);
  await t.engine.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: row.status, accessExpiresAt: new Date(Date.now() - 1000).toISOString(), updatedAt: row.updatedAt });
}

/** A fake provider's authorization endpoint that approves at once: redirects back with `code` and the request's state. */
export function approveAtOnce(url: URL, res: ServerResponse, code: string): void {
  const back = new URL(url.searchParams.get('redirect_uri')!);
  back.searchParams.set('code', code);
  back.searchParams.set('state', url.searchParams.get('state')!);
  res.writeHead(302, { location: back.href });
  res.end();
}
