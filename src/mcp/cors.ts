// CORS for browser-based MCP clients (the Inspector's UI in direct mode, a web app on another
// loopback port): a page on an origin the DNS-rebinding check accepts (./index.ts, originAllowed)
// may send the MCP headers and read the session ID from the answer. The bearer token travels in a
// header, never a cookie, so no credentials mode is granted.

/** What an answer to an allowed browser origin exposes to its script. */
export const MCP_EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

/** What a preflight allows on /mcp/<version>. */
export const MCP_PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-max-age': '600',
} as const;

/** The headers of an answer to `origin`, once it is allowed. */
export const corsHeaders = (origin: string): Record<string, string> => ({
  'access-control-allow-origin': origin,
  'access-control-expose-headers': MCP_EXPOSED_HEADERS,
  vary: 'origin',
});
