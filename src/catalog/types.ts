// The normalised operation index: what `npm run gen` writes for bundled services and what an
// import produces at run time. Everything the Engine needs to validate, build and page a call.

export type JsonSchema = Record<string, unknown> | boolean;

export type ParameterLocation = 'path' | 'query' | 'header';

export interface ParameterSpec {
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** Query arrays: repeat the key (true) or join with commas (false). */
  explode: boolean;
  /** Query objects serialised as `key[prop]=value`. */
  deepObject: boolean;
  /** Path parameter whose embedded `/` is kept (resource names). */
  slashPreserving: boolean;
  /** Query arrays not exploded: spaceDelimited (' ') or pipeDelimited ('|') instead of commas. */
  delimiter?: ' ' | '|';
  /** Described by `content` (a JSON media type): the value is sent as JSON text under its name. */
  json?: true;
  /**
   * Its key in a call's `input` when that is not its name: where two parameters of one operation
   * share a name in different locations, the path one keeps the name and each other is keyed
   * `<location>.<name>` (`query.token`); see inputKey.
   */
  key?: string;
}

/** A parameter's key in a call's `input`: its name, unless another parameter of the operation has it (ParameterSpec.key). */
export const inputKey = (p: ParameterSpec): string => p.key ?? p.name;

export interface RequestBodySpec {
  /** A JSON media type, or application/x-www-form-urlencoded (Stripe's writes): see FormEncoding. */
  contentType: string;
  required: boolean;
  schema: JsonSchema;
  /** A form body's properties that the description's `encoding` writes otherwise than form style, exploded. */
  encoding?: Record<string, FormEncoding>;
}

/**
 * How one property of a form body is written (OpenAPI's encoding object): form style repeats an
 * array's name per item and writes an object's properties as pairs of their own; deepObject writes
 * nested values in brackets (`metadata[plan]=pro`, `items[0][price]=p_1`), as Stripe reads them;
 * json sends the value as JSON text.
 */
export interface FormEncoding {
  style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode: boolean;
  json?: true;
}

export type PaginationStyle = 'cursor' | 'link_header' | 'next_url' | 'page' | 'offset';

export interface PaginationPolicy {
  style: PaginationStyle;
  /** Request parameter that carries the continuation (cursor, page or offset styles). */
  pageInput?: string;
  /**
   * RFC 6901 pointer into the page body that yields the next cursor (cursor style), or the next
   * page's URL (next_url style: SendGrid's `_metadata.next`), followed like a Link header's.
   */
  continuation?: string;
  /** RFC 6901 pointer to the array that pages add to ('' for a root array). */
  items: string;
  /** RFC 6901 pointer whose falsy value means the provider terminated. */
  stop?: string;
  /** Offset and page styles: RFC 6901 pointer whose true value means this page is the last (Jira's `isLast`). */
  last?: string;
  /** Offset style: RFC 6901 pointer to the provider's count of all items; the traversal ends once the next offset reaches it (Jira's `total`). */
  total?: string;
  /** Page style: RFC 6901 pointer to the provider's count of pages; the traversal ends once it read that page (Slack's `paging.pages`). */
  pages?: string;
  engineMaxPages: number;
  callerBound: boolean;
}

export interface OperationSpec {
  /** Public operation ID: `<service>.<provider operationId>`. */
  id: string;
  service: string;
  providerOperationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tags: string[];
  /** Grouped path in typed packages, e.g. ['issues', 'create']. */
  group: string[];
  deprecated: boolean;
  parameters: ParameterSpec[];
  body: RequestBodySpec | null;
  /** Response schemas by status code ('200', '4XX', 'default'); null when the response has no JSON body. */
  responses: Record<string, JsonSchema | null>;
  pagination: PaginationPolicy | null;
}

export interface ApiKeyAuth {
  name: string;
  type: 'api_key';
  in: 'header' | 'query';
  /** Header name (in: header) or query parameter name (in: query). */
  header?: string;
  param?: string;
  prefix: string;
}

export interface OAuth2Auth {
  name: string;
  type: 'oauth2';
  authorizationUrl: string;
  tokenUrl: string;
  /** RFC 7009 token revocation endpoint, resolved like tokenUrl; absent: the provider offers none the Engine can call. */
  revocationUrl?: string;
  scopes: string[];
  /** What joins the scopes in the authorization request: a space (RFC 6749 §3.3), or the provider's own (Slack's ','). */
  scopeSeparator?: string;
  /** How the client authenticates at the token and revocation endpoints: in the form (the default) or as HTTP Basic (Zoom). */
  clientAuth?: 'body' | 'basic';
  /**
   * The absolute endpoints are the provider's own deployment (zoom.us beside api.zoom.us): when the
   * workspace points the service at another origin (a test double, a proxy of the whole site),
   * they keep their paths and move there too, as relative ones do. Without it they stay where
   * they are (an identity provider of its own, such as Atlassian's for every Jira site).
   */
  followsBaseUrl?: boolean;
}

/**
 * HTTP Basic (RFC 7617): the stored secret is `user:password` (Jira's `email:api_token`, Twilio's
 * `sid:token`), sent as `Authorization: Basic base64(secret)`; the Engine builds the header.
 */
export interface HttpBasicAuth {
  name: string;
  type: 'http_basic';
}

/** The methods that send the workspace's stored secret (not an end user's OAuth connection). */
export type SecretAuth = ApiKeyAuth | HttpBasicAuth;

export type AuthMethod = ApiKeyAuth | HttpBasicAuth | OAuth2Auth;

export interface ServiceIndex {
  service: string;
  version: string;
  title: string;
  baseUrl: string;
  auth: AuthMethod[];
  /** Headers the Engine sends on every request to this service (e.g. an API version pin). */
  headers: Record<string, string>;
  /** A provider that says it failed inside a 2xx answer (Slack's `{ ok: false }`): answers with this value at this pointer are errors. */
  providerError?: ProviderErrorRule;
  /** The provider honours an idempotency key in this header (Stripe's `Idempotency-Key`): see src/execution/idempotency.ts. */
  idempotency?: { header: string };
  /** Retries of a provider request (src/execution/retry.ts): at most `maxAttempts` attempts (default 3). */
  retry?: { maxAttempts: number };
  /** Safety hints the policy declares, by provider operation ID; the others follow the method (src/catalog/safety.ts: operationHints). */
  safety?: Record<string, { readOnly?: boolean; destructive?: boolean }>;
  /** The provider's components.schemas; operation schemas refer to them as `#/components/schemas/X`. */
  schemas: Record<string, JsonSchema>;
  operations: OperationSpec[];
  /** Operations of the description the Engine cannot send as described, left out of `operations`. */
  omitted?: OmittedOperation[];
  /** What was imported but cannot be read as described: `$ref`s of response schemas that name nothing or close a cycle. */
  warnings?: OmittedOperation[];
}

export interface OmittedOperation {
  operationId: string;
  /** Where in the document the reason is (`document.paths['/x'].post.requestBody.content`). */
  field: string;
  reason: string;
  /** What would make it importable, when the Engine knows. */
  hint?: string;
}

export interface ServiceSummary {
  service: string;
  version: string;
  title: string;
  baseUrl: string;
  operations: number;
  source: 'catalog' | 'imported';
}

/** A 2xx answer whose body holds `equals` at `pointer` (RFC 6901) is the provider's error: reported as PROVIDER_ERROR. */
export interface ProviderErrorRule {
  pointer: string;
  equals: string | number | boolean | null;
}
