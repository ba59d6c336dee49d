// SQLite rows (snake_case columns, JSON in TEXT, 0/1 for booleans) as the Store's objects.
import type { AppVersionRow, ConnectionRow, DeviceCodeRow, ReceiptRow, TokenRow } from './types.ts';

export type Row = Record<string, any>;

export const versionFrom = (r: Row): AppVersionRow => ({
  versionId: r.version_id,
  name: r.name,
  version: r.version,
  services: JSON.parse(r.services),
  operations: JSON.parse(r.operations),
  createdAt: r.created_at,
  ...(r.require_approval ? { requireApproval: JSON.parse(r.require_approval) } : {}),
});

export const tokenFrom = (r: Row): TokenRow => ({
  id: r.id,
  kind: r.kind,
  subject: r.subject,
  hash: r.hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
  allow: r.allow === null ? null : JSON.parse(r.allow),
  binding: r.binding === null ? null : JSON.parse(r.binding),
  ...(r.read_only === 1 ? { readOnly: true } : {}),
});

export const receiptFrom = (r: Row): ReceiptRow => ({
  id: r.id,
  versionId: r.version_id,
  operation: r.operation,
  surface: r.surface,
  tokenId: r.token_id,
  startedAt: r.started_at,
  providerDurationMs: r.provider_duration_ms,
  pages: r.pages,
  status: r.status,
  ok: r.ok === 1,
  bytes: r.bytes,
  sha256: r.sha256,
  errorCode: r.error_code,
  ...(r.attempts === null || r.attempts === undefined ? {} : { attempts: JSON.parse(r.attempts) }),
  ...(r.trace_id === null || r.trace_id === undefined ? {} : { traceId: r.trace_id }),
});

export const deviceFrom = (r: Row): DeviceCodeRow => ({
  hash: r.hash,
  userCode: r.user_code,
  clientId: r.client_id,
  status: r.status,
  subject: r.subject,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastPolledAt: r.last_polled_at,
  requestedFrom: r.requested_from,
  requestedAgent: r.requested_agent,
  credentialTtlSeconds: r.credential_ttl_seconds,
});

export const connectionFrom = (r: Row): ConnectionRow => ({
  id: r.id,
  service: r.service,
  endUserRef: r.end_user_ref,
  authName: r.auth_name,
  tokens: JSON.parse(r.tokens),
  status: r.status,
  accessExpiresAt: r.access_expires_at,
  generation: r.generation,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  consentedAt: r.consented_at,
});
