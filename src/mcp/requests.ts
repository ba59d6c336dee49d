// Checks the params of the JSON-RPC requests the Engine's MCP server answers, before the SDK sees
// them. The SDK's Protocol.setRequestHandler parses each request with its method's schema and, on
// failure, throws the ZodError itself: its answer is -32603 Internal error with the whole Zod issue
// list (JSON text, many lines) as the message. The SDK means -32602 (Server.setRequestHandler
// wraps tools/call to throw InvalidParams, but the Protocol layer's parse runs first), and JSON-RPC
// 2.0 defines -32602 Invalid params as "Invalid method parameter(s)". This answers such a request
// with -32602 and one line naming the field, from the same SDK schemas, so nothing the SDK accepts
// is refused here.
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } };

/** The requests the Engine's SDK Server has handlers for; any other method is the SDK's -32601. */
const SCHEMAS: Record<string, Schema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
};

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
  errors?: Issue[][];
  keys?: string[];
}


const pathText = (path: PropertyKey[]) =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `${text}${text ? '.' : ''}${String(key)}` : `${text}[${JSON.stringify(String(key))}]`), '');

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** "a string", "an object", ... for a Zod type name. */
function typeName(expected: string): string {
  const name = expected === 'record' ? 'object' : expected === 'int' ? 'integer' : expected;
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** What a JSON value is, as a caller would say it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a non-integer number';
  return typeName(typeof value);
}

function describe(issue: Issue, request: unknown): string {
  const path = issue.path.length ? pathText(issue.path) : 'the message';
  const value = valueAt(request, issue.path);
  if (issue.code === 'invalid_type') {
    if (value === undefined) return `${path} is required`;
    return `${path} must be ${typeName(issue.expected ?? 'value')}, not ${kindOf(value)}`;
  }
  if (issue.code === 'invalid_union' && issue.errors?.every((branch) => branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0)) {
    const expected = [...new Set(issue.errors.map((branch) => typeName(branch[0]!.expected ?? 'value')))];
    if (value === undefined) return `${path} is required`;
    return `${path} must be ${expected.join(' or ')}, not ${kindOf(value)}`;
  }
  if (issue.code === 'invalid_value' && issue.values?.length === 1) return `${path} must be ${JSON.stringify(issue.values[0])}`;
  if (issue.code === 'invalid_value' && issue.values) return `${path} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'unrecognized_keys' && issue.keys) return `${path} has unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  return `${path} is invalid (${issue.message.replace(/\s+/g, ' ')})`;
}

/**
 * For a JSON-RPC request the SDK would refuse with a ZodError: the one-line -32602 message
 * (`Invalid params for tools/call: params.name must be a string, not a number`). Undefined when
 * the SDK accepts the request, or it is not one of the methods above.
 */
export function invalidParams(message: { method?: unknown }): string | undefined {
  const method = message.method;
  if (typeof method !== 'string' || !Object.hasOwn(SCHEMAS, method)) return undefined;
  const parsed = SCHEMAS[method]!.safeParse(message);
  if (parsed.success) return undefined;
  return `Invalid params for ${method}: ${describeIssues(parsed.error?.issues ?? [], message)}`;
}

function describeIssues(issues: Issue[], value: unknown): string {
  const first = issues[0];
  return `${first ? describe(first, value) : 'the message is invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
}

/**
 * Why a POSTed message is not a JSON-RPC message the SDK's transport takes, in one line naming the
 * member (`params must be an object, not a number`); undefined when it is one. The transport itself
 * answers these with 400 and `-32700 Parse error: Invalid JSON-RPC message`, naming nothing, though
 * the body parsed: JSON-RPC 2.0 calls this -32600 Invalid Request ("The JSON sent is not a valid
 * Request object").
 */
export function invalidMessage(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `the message must be a JSON-RPC object, not ${kindOf(value)}`;
  const has = (key: string) => Object.hasOwn(value, key);
  const schema: Schema = has('method')
    ? has('id')
      ? JSONRPCRequestSchema
      : JSONRPCNotificationSchema
    : has('error')
      ? JSONRPCErrorResponseSchema
      : JSONRPCResultResponseSchema;
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : describeIssues(parsed.error?.issues ?? [], value);
}
