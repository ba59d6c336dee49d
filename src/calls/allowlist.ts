// Token allowlists: public operation IDs, with `*` allowed as a suffix glob (`github.issues/*`).
// A null allowlist allows everything the MCP version selects.
export function allows(allow: readonly string[] | null, operationId: string): boolean {
  if (allow === null) return true;
  return allow.some((entry) => (entry.endsWith('*') ? operationId.startsWith(entry.slice(0, -1)) : entry === operationId));
}
