// Which redirect URIs a client may register, and when a requested one is a registered one. A
// redirect URI is https, or http on a loopback host (a native app's local listener, RFC 8252 §7.3).
// An authorization request's redirect_uri must equal a registered one exactly, except that a
// loopback one may name any port: the app's listener takes whichever port is free.

const MAX_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `uri` cannot be registered as a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !uri) return 'is not a URL';
  if (uri.length > MAX_LENGTH) return `is longer than ${MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (uri.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'may use http only on a loopback host (127.0.0.1, [::1] or localhost); use https';
  return `uses the scheme '${url.protocol.slice(0, -1)}'; use https, or http on a loopback host`;
}

/** The loopback http URI without its port, for comparing two that differ only there; undefined for any other URI. */
function loopbackWithoutPort(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
    return `http://${url.hostname}${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/** Whether `requested` is one of `registered`: the same string, or the same loopback URI on another port. */
export function redirectUriRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const bare = loopbackWithoutPort(requested);
  return bare !== undefined && registered.some((r) => loopbackWithoutPort(r) === bare);
}

/** Whether the redirect URI is a loopback one (the consent page warns: any local program can listen there). */
export const isLoopbackRedirect = (uri: string) => loopbackWithoutPort(uri) !== undefined;
