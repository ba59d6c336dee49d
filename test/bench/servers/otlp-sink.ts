// The trace collector for the tracing benchmark: an OTLP/HTTP receiver on loopback that takes
// POST /v1/traces (OTLP JSON), counts the spans in it, and answers 200 at once, as a collector that
// keeps up does. GET /count answers the spans and export requests received so far.
// Run as a child process by test/bench/lib/child.ts.
import { createServer } from 'node:http';
import { serve } from './ipc.ts';
import { listenOnLoopback } from './close.ts';

/** Each span in OTLP JSON carries one `"spanId"` key (parents are `"parentSpanId"`). */
const SPAN_KEY = '"spanId":';

await serve(async () => {
  let spans = 0;
  let exports = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/count') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ spans, exports, bytes }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      bytes += text.length;
      exports++;
      for (let at = text.indexOf(SPAN_KEY); at !== -1; at = text.indexOf(SPAN_KEY, at + SPAN_KEY.length)) spans++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return listenOnLoopback(server, async () => undefined);
});
