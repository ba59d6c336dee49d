// PostgreSQL rows as the Store's objects.
export type Row = Record<string, any>;

export const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * A row as the Store's object (./types.ts): snake_case columns become camelCase keys. JSONB arrives
 * parsed, BOOLEAN as a boolean and BIGINT as a number, so no other conversion is needed; queries
 * select exactly the object's fields (aliasing where a name differs).
 */
export function camel<T>(r: Row): T {
  const out: Row = {};
  for (const [k, v] of Object.entries(r)) out[k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = v;
  return out as T;
}
export const camelAll = <T>(rows: Row[]): T[] => rows.map((r) => camel<T>(r));

/** A token row: `readOnly` only when set, as the SQLite store reads it (./sqlite-rows.ts). */
export function tokenRow<T extends { readOnly?: boolean | undefined }>(r: Row): T {
  const { readOnly, ...rest } = camel<T>(r);
  return (readOnly ? { ...rest, readOnly } : rest) as T;
}

/** A version row: `requireApproval` only when the version has some. */
export function versionRow<T extends { requireApproval?: string[] | null | undefined }>(r: Row): T {
  const { requireApproval, ...rest } = camel<T>(r);
  return (requireApproval ? { ...rest, requireApproval } : rest) as T;
}
