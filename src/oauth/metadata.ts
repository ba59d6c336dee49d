// The discovery documents: the Engine as authorization server (RFC 8414, also answered at the
// OpenID discovery path) and each MCP server version as a protected resource (RFC 9728) whose
// resource identifier (RFC 8707) is its URL. Endpoint paths live here only.

export const ENDPOINTS = { authorize: '/oauth/authorize', token: '/oauth/token', register: '/oauth/register', revoke: '/oauth/revoke' } as const;

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: issuer + ENDPOINTS.authorize,
    token_endpoint: issuer + ENDPOINTS.token,
    registration_endpoint: issuer + ENDPOINTS.register,
    revocation_endpoint: issuer + ENDPOINTS.revoke,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** An MCP server version's resource identifier: the URL clients connect to. */
export const resourceOf = (issuer: string, versionId: string) => `${issuer}/mcp/${versionId}`;

/** Where a version's protected resource metadata is: the well-known prefix, then the server's path. */
export const resourceMetadataUrl = (issuer: string, versionId: string) => `${issuer}/.well-known/oauth-protected-resource/mcp/${versionId}`;

export function protectedResourceMetadata(issuer: string, version: { versionId: string; name: string; version: string }) {
  return {
    resource: resourceOf(issuer, version.versionId),
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: `${version.name} ${version.version}`,
  };
}

/**
 * The version a `resource` parameter names, when it is one of this Engine's MCP server URLs
 * (scheme and host compared case-insensitively, a trailing slash allowed); undefined otherwise.
 */
export function versionOfResource(issuer: string, resource: string): string | undefined {
  let url: URL;
  let base: URL;
  try {
    url = new URL(resource);
    base = new URL(issuer);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin || url.search || url.hash || resource.includes('#') || url.username || url.password) return undefined;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/mcp/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  const rest = url.pathname.slice(prefix.length).replace(/\/$/, '');
  return /^ver_[0-9A-HJKMNP-TV-Z]{26}$/.test(rest) ? rest : undefined;
}
