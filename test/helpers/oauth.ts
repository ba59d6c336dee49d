// Completes demo-crm's OAuth consent over plain HTTP, as a browser would: open the consent page,
// submit it, follow the redirect to the Engine's callback.
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
