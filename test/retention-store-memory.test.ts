// The SessionStateStore contract against the in-memory store (one Engine process).
import { describe } from 'vitest';
import { MemorySessionStateStore } from '../src/retention/index.ts';
import { sessionStateStoreContract } from './retention-store.contract.ts';

describe('MemorySessionStateStore', () => {
  sessionStateStoreContract((clock) => new MemorySessionStateStore(clock));
});
