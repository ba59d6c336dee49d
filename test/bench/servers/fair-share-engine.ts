// The Engine of the fair-share benchmark, in its own process (./bench-engine.ts), with the settings
// in BENCH_ENGINE_ENV (JSON) on top, an MCP server selecting demo-crm contacts/get published over
// the control plane and a second token issued for it. `ready` carries the MCP URL and the two
// tokens: one runs busy loops, the other `return 1`.
import { startBenchEngine } from './bench-engine.ts';
import { serve } from './ipc.ts';

export interface FairShareEngineReady {
  mcpUrl: string;
  busyToken: string;
  otherToken: string;
}

await serve(async () => {
  const { engine, api, stop } = await startBenchEngine('svc-bench-fair-', JSON.parse(process.env.BENCH_ENGINE_ENV || '{}') as Record<string, string>);
  try {
    // The scripts make no call(): the service is pointed at a port nothing listens on.
    await api('PUT', '/v1/workspace/services/demo-crm', { version: 'v1', baseUrl: 'http://127.0.0.1:9' });
    const server = await api('POST', '/v1/mcp/publish', { name: 'fair-share', services: ['demo-crm=v1'], operations: ['demo-crm=contacts/get'] });
    const other = await api('POST', `/v1/mcp/${server.versionId}/tokens`, { allow: ['demo-crm.contacts/get'] });
    const info: FairShareEngineReady = { mcpUrl: `${engine.url}/mcp/${server.versionId}`, busyToken: server.token, otherToken: other.token };
    return { info, stop };
  } catch (err) {
    await stop();
    throw err;
  }
});
