// Picks a call's credential: an end user's OAuth connection, or the workspace's API key.
import type { ApiKeyAuth, SecretAuth, ServiceIndex } from '../catalog/index.ts';
import type { Connections } from '../connections/index.ts';
import type { BoundSecret, SecretVault } from '../credentials/index.ts';
import { DEFAULT_BUCKET, originMoved } from '../credentials/index.ts';
import { EngineError } from '../envelope/index.ts';
import type { Credential, Selectors } from './types.ts';

/**
 * A service version's workspace-secret method (an API key, or HTTP Basic: selectors call both
 * `api_key`, the workspace's own credential) and its OAuth method, found once per catalog index.
 */
const authMethods = new WeakMap<ServiceIndex, { apiKey: SecretAuth | undefined; oauth: ServiceIndex['auth'][number] | undefined }>();
export function authOf(index: ServiceIndex) {
  let methods = authMethods.get(index);
  if (!methods) {
    methods = { apiKey: index.auth.find((a): a is SecretAuth => a.type === 'api_key' || a.type === 'http_basic'), oauth: index.auth.find((a) => a.type === 'oauth2') };
    authMethods.set(index, methods);
  }
  return methods;
}

/**
 * Picks the credential: an end user's OAuth connection when the (bound or caller) selectors
 * name an end user or ask for oauth2, else the bucket's API key. A promise only when the secret
 * needs I/O (an OAuth token, or a store without synchronous reads); the usual API-key call gets
 * its answer at once.
 */
export function pickCredential(sources: { vault: SecretVault; connections: Connections }, index: ServiceIndex, selectors: Selectors, origin: string): Credential | Promise<Credential> {
  const service = index.service;
  const { apiKey, oauth } = authOf(index);
  // An end user or an auth name (a connection's name) means an OAuth connection: never ignored for the API key.
  const namesConnection = selectors.endUserRef !== undefined || selectors.authName !== undefined;
  if (selectors.authType === 'api_key' && namesConnection) {
    const field = selectors.endUserRef !== undefined ? 'selectors.endUserRef' : 'selectors.authName';
    const what = selectors.endUserRef !== undefined ? "an end user's OAuth connection" : 'an OAuth connection';
    throw new EngineError('ENGINE_INVALID_INPUT', `${field} names ${what}; it does not apply with authType 'api_key' (omit it to call with the workspace's key, or omit authType)`, { details: { field } });
  }
  const wantsOAuth = selectors.authType === 'oauth2' || (selectors.authType === undefined && namesConnection);
  if (wantsOAuth) {
    if (!oauth) {
      const field = selectors.authType === 'oauth2' ? 'selectors.authType' : selectors.endUserRef !== undefined ? 'selectors.endUserRef' : 'selectors.authName';
      throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' has no OAuth 2.0 auth: ${field} does not apply (its calls use the workspace's key)`, { details: { field } });
    }
    if (!selectors.endUserRef) {
      throw new EngineError('ENGINE_INVALID_INPUT', `selectors.endUserRef is required to call '${service}' with OAuth`, { details: { field: 'selectors.endUserRef' } });
    }
    const auth: ApiKeyAuth = { name: oauth.name, type: 'api_key', in: 'header', header: 'Authorization', prefix: 'Bearer ' };
    const endUserRef = selectors.endUserRef;
    return sources.connections.accessToken(service, endUserRef, selectors.authName, origin).then((token) => ({
      auth,
      secret: token,
      renew: () => sources.connections.accessToken(service, endUserRef, selectors.authName, origin, token),
    }));
  }
  if (selectors.authType === 'api_key' && !apiKey) {
    throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' has no API-key auth`, { details: { field: 'selectors.authType' } });
  }
  if (!apiKey) {
    if (oauth) throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' uses OAuth connections: pass selectors.endUserRef`, { details: { field: 'selectors.endUserRef' } });
    return { auth: undefined, secret: null };
  }
  const withSecret = (secret: BoundSecret | null): Credential => {
    if (secret === null) {
      throw new EngineError('ENGINE_CREDENTIAL_MISSING', `no secret is set for '${service}'; run \`svc-cli secret set ${service} --value-stdin\``);
    }
    if (secret.origin !== origin) throw originMoved(`the secret for '${service}'`, secret.origin, origin, `svc-cli secret set ${service} --value-stdin`);
    // RFC 7617: the user ID ends at the first ':'; a secret without one cannot be a Basic credential.
    if (apiKey.type === 'http_basic' && !secret.value.includes(':')) {
      throw new EngineError('ENGINE_CREDENTIAL_MISSING', `the secret for '${service}' is not in the form user:password that its HTTP Basic auth needs; set it again with \`svc-cli secret set ${service} --value-stdin\``);
    }
    return { auth: apiKey, secret: secret.value };
  };
  const known = sources.vault.getSync(DEFAULT_BUCKET, service);
  return known === undefined ? sources.vault.get(DEFAULT_BUCKET, service).then(withSecret) : withSecret(known);
}
