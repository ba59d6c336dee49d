// Receipt rows as the Engine mints them at a given time (receipt IDs are ULIDs: time first), for
// tests of listing and pruning.
import { receiptIdAt } from '../../src/ids/index.ts';
import type { ReceiptRow } from '../../src/store/index.ts';

/** A successful receipt of `versionId` minted at `mintedAt` (ms); `i` makes its ID unique within that millisecond. */
export const receiptAt = (versionId: string, mintedAt: number, i: number): ReceiptRow => ({
  id: `${receiptIdAt(mintedAt)}${String(i).padStart(16, '0')}`,
  versionId,
  operation: 'demo-crm.contacts/get',
  surface: 'rest',
  tokenId: null,
  startedAt: new Date(mintedAt).toISOString(),
  providerDurationMs: 1,
  pages: 1,
  status: 200,
  ok: true,
  bytes: 1,
  sha256: null,
  errorCode: null,
});
