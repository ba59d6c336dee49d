// The shapes of one call through the execution path: its scope, request, result and outcome.
import type { OperationSpec, ServiceIndex } from '../catalog/index.ts';
import type { SecretAuth } from '../catalog/index.ts';
import type { Envelope } from '../envelope/index.ts';
import type { Connection } from './dispatch.ts';
import type { Attempt } from './retry.ts';

export interface Selectors {
  endUserRef?: string | undefined;
  authType?: 'api_key' | 'oauth2' | undefined;
  authName?: string | undefined;
  resourceId?: string | undefined;
}

export interface CallScope {
  surface: 'rest' | 'grpc' | 'mcp';
  versionId: string;
  tokenId: string | null;
  /** service → pinned version, from the SDK or MCP version. */
  services: ReadonlyMap<string, string>;
  /** Whether the version (and token allowlist) admits this public operation ID. */
  admits(operationId: string): boolean;
  resultCapBytes: number;
  signal?: AbortSignal | undefined;
  /** The caller's connection (REST): the call is cancelled when it closes. */
  connection?: Connection | undefined;
  /** A read-only token's scope: an operation that is not read-only is refused before anything is sent (./read-only.ts). */
  readOnly?: boolean | undefined;
  /** A token's fixed selectors: authoritative over the caller's. */
  binding?: Selectors | null | undefined;
  /** When the caller stops waiting (epoch ms: a gRPC deadline, the end of an MCP run): retries and their waits end before it. */
  deadline?: number | undefined;
}

export interface CallRequest {
  operation: string;
  input?: Record<string, unknown> | undefined;
  /** `{ maxPages: N }`; any other shape is refused as ENGINE_PAGINATION_INVALID. */
  pagination?: unknown;
  selectors?: Selectors | undefined;
  /**
   * The caller's idempotency key (checked), when it gave one: a provider that honours keys of its
   * own gets one derived from it (and `part`, a Unified step's target), and the request may then be
   * retried as an idempotent one would.
   */
  idempotency?: { key: string; part?: string } | undefined;
}

export interface CallResult {
  envelope: Envelope;
  /** True when a provider answered; REST then replies 200 whatever the provider's status. */
  providerAnswered: boolean;
  receiptId: string;
  /** Time spent waiting on the provider (all pages), as recorded on the receipt. */
  providerDurationMs: number;
  /**
   * The JSON text of `envelope.data` when it is the provider's own JSON body (secret redacted),
   * so a surface can splice it into its reply instead of re-serialising the parsed value.
   */
  dataJson?: string | undefined;
  /**
   * `envelope.error.details` to serialise instead, when the provider's error body holds integers
   * past 2^53: its `providerBody` keeps their digits (JSON.rawJSON). Never handed to a script.
   */
  exactDetails?: Record<string, unknown> | undefined;
  /** Set when a caller bound ended the traversal with pages left: the provider has more. */
  continuation?: Continuation | undefined;
  /** The provider attempts, when a request was sent more than once. */
  attempts?: Attempt[] | undefined;
  /** A provider that honours idempotency keys got one derived from the caller's with this call. */
  keyForwarded?: boolean | undefined;
  /** The answer is the one kept under the caller's idempotency key: nothing was sent this time. */
  replayed?: boolean | undefined;
}

/** Where a bounded traversal stopped: more pages follow; `input` holds the page input that reads on (not for Link-header paging). */
export interface Continuation {
  more: true;
  input?: Record<string, unknown>;
}

export interface Outcome {
  envelope: Envelope;
  providerAnswered: boolean;
  pages: number;
  durationMs: number;
  bytes: number;
  sha256: string | null;
  dataJson?: string | undefined;
  exactDetails?: Record<string, unknown> | undefined;
  continuation?: Continuation | undefined;
  attempts?: Attempt[] | undefined;
  /** A key derived from the caller's idempotency key went to a provider that honours it. */
  keyForwarded?: boolean | undefined;
}

/** A public operation ID resolved within a call's scope. */
export interface ResolvedOperation {
  op: OperationSpec;
  service: string;
  version: string;
  /** The catalog's index of that service version. */
  index: ServiceIndex;
}

/** The auth method a provider request uses and its secret (null: the service needs none). */
export interface Credential {
  auth: SecretAuth | undefined;
  secret: string | null;
  /**
   * OAuth only: a fresh access token after the provider answered 401 to this one (revoked or
   * expired early, or one whose expiry the provider never said). A 401 means the request was not
   * acted on, so it is sent once more with the new token.
   */
  renew?: () => Promise<string>;
}
