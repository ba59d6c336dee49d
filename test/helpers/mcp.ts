// Raw Streamable HTTP helpers for asserting exact headers and statuses.
export const PROTOCOL = '2025-06-18';

export interface RawMcp {
  url: string;
  token: string;
  post(body: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  send(method: 'GET' | 'DELETE', headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
}

export function rawMcp(url: string, token: string): RawMcp {
  const parse = async (res: Response) => {
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* SSE or empty */
    }
    return { status: res.status, headers: res.headers, body };
  };
  return {
    url,
    token,
    post: async (body, headers = {}) =>
      parse(
        await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        }),
      ),
    send: async (method, headers = {}) => {
      const controller = new AbortController();
      const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', ...headers }, signal: controller.signal });
      if (res.headers.get('content-type')?.includes('text/event-stream')) {
        controller.abort();
        return { status: res.status, headers: res.headers, body: undefined };
      }
      return parse(res);
    },
  };
}

export const initializeMessage = (protocolVersion = PROTOCOL) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

/** Opens a ready session over raw HTTP and returns the headers to send on later requests. */
export async function openSession(mcp: RawMcp): Promise<Record<string, string>> {
  const init = await mcp.post(initializeMessage());
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${JSON.stringify(init.body)}`);
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': PROTOCOL };
  const ready = await mcp.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (ready.status !== 202) throw new Error(`notifications/initialized answered ${ready.status}`);
  return headers;
}
