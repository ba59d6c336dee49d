// The trace collector for the tracing benchmark: an OTLP/HTTP receiver on loopback that takes
// POST <prefix>/v1/traces (OTLP protobuf or JSON, by content type; one prefix per Engine, as its
// OTEL_EXPORTER_OTLP_ENDPOINT's path), counts the spans in it, and answers 200 at once, as a
// collector that keeps up does. GET /count answers the spans, export requests and bytes received
// so far, by prefix. Run as a child process by test/bench/lib/child.ts.
import { createServer } from 'node:http';
import { countSpans, isProtobuf } from '../../fixtures/otlp-decode.ts';
import { serve } from './ipc.ts';
import { listenOnLoopback } from './close.ts';

interface Tally {
  spans: number;
  exports: number;
  bytes: number;
}

await serve(async () => {
  const tallies: Record<string, Tally> = {};
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/count') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(tallies));
      return;
    }
    const prefix = (req.url ?? '').replace(/\/v1\/traces$/, '') || '/';
    const tally = (tallies[prefix] ??= { spans: 0, exports: 0, bytes: 0 });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'];
      tally.bytes += body.length;
      tally.exports++;
      tally.spans += countSpans(body, contentType);
      // An empty ExportTraceServiceResponse, in the request's encoding.
      if (isProtobuf(contentType)) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return listenOnLoopback(server, async () => undefined);
});
