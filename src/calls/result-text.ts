// A call's answer as JSON text for the REST and gRPC surfaces.
import type { CallResult } from '../execution/index.ts';

/** A call's envelope as JSON text, with the provider's own JSON body spliced in when there is one. */
export function resultJson(result: CallResult): string {
  const e = result.envelope;
  if (result.dataJson !== undefined && e.ok === true && e.error === null) {
    // A caller bound that stopped before the provider's last page says so, and how to read on.
    const more = result.continuation === undefined ? '' : `,"continuation":${JSON.stringify(result.continuation)}`;
    return `{"ok":true,"status":${JSON.stringify(e.status)},"data":${result.dataJson},"error":null${more}}`;
  }
  if (result.exactDetails && e.error) return JSON.stringify({ ...e, error: { ...e.error, details: result.exactDetails } });
  return JSON.stringify(e);
}
