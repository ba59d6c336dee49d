// The MCP server at /mcp/<version_id> (./gateway.ts), its two tools (./tools.ts) and its CORS (./cors.ts).
export { allows } from '../calls/index.ts';
export { MCP_PREFLIGHT } from './cors.ts';
export { McpGateway, type McpOptions } from './gateway.ts';
export { SESSION_LIMIT_RECOVERY } from './http.ts';
export { SESSION_UNAVAILABLE_RECOVERY } from './tools.ts';
export type { McpSession } from './types.ts';
