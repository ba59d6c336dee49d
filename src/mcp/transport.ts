// The SDK's server and transport as the MCP endpoint (./gateway.ts) uses them: one Server and
// stateless transport per request, params refused by name before the SDK's schemas, the raw
// tools/call arguments kept, and the transports of each session tracked.
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport as Transport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ErrorCode, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallRef } from '../retention/index.ts';
import { invalidParams } from './requests.ts';
import type { JsonRpcMessage } from './http.ts';

/**
 * Every request gets its own SDK Server; by default each would build its own Ajv instance (with
 * formats) for elicitation schemas, which the Engine never sends. One shared validator keeps a
 * request's allocations small.
 */
let sharedServerOptions: ServerOptions | undefined;
export const serverOptions = () => (sharedServerOptions ??= { capabilities: { tools: { listChanged: false }, logging: {} }, jsonSchemaValidator: new AjvJsonSchemaValidator() });
export const SERVER_INFO = { name: 'svc-engine', version: '0.1.0' };


/** Adds a transport under its session; the returned function removes it again. */
export function track(bySession: Map<string, Set<Transport>>, sessionId: string, transport: Transport): () => void {
  let set = bySession.get(sessionId);
  if (!set) bySession.set(sessionId, (set = new Set()));
  set.add(transport);
  return () => {
    set.delete(transport);
    if (!set.size && bySession.get(sessionId) === set) bySession.delete(sessionId);
  };
}


/**
 * Answers each request whose params the SDK's schema refuses with -32602 naming the field
 * (./requests.ts), instead of passing it to the SDK Server, whose answer would be -32603 with the
 * Zod issue list as its message. Other messages, and the other requests of a batch, go on as before.
 */
export function refuseInvalidParams(transport: Transport) {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (problem === undefined) {
      keepRawArguments(transport, message);
      return deliver(message, extra);
    }
    void transport.send({ jsonrpc: '2.0', id: (message as { id: string | number }).id, error: { code: ErrorCode.InvalidParams, message: problem } }).catch(() => undefined);
  };
}

/**
 * The tools/call arguments of each request as the body held them. The SDK's CallToolRequestSchema
 * rebuilds `arguments` and silently drops a `__proto__` member, which the tool's schema would
 * refuse as an unknown argument like any other: the tools read the body's own object instead.
 */
export const rawArguments = new WeakMap<Transport, Map<string | number, unknown>>();
export function keepRawArguments(transport: Transport, message: unknown) {
  const m = message as JsonRpcMessage;
  if (m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return;
  let kept = rawArguments.get(transport);
  if (!kept) rawArguments.set(transport, (kept = new Map()));
  kept.set(m.id, m.params?.arguments);
}


/** Stateless (the session is a record in the store) and answering with JSON bodies. */
export const TRANSPORT_OPTIONS = { sessionIdGenerator: undefined, enableJsonResponse: true };


export const callKey = (sessionId: string, requestId: string | number) => `${sessionId}\n${typeof requestId}:${requestId}`;
export type RunningCall = CallRef & { cancel: AbortController };
