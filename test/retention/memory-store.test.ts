// The SessionStateStore contract against the in-memory store (one Engine process).
import { describe } from 'vitest';
import { MemorySessionStateStore } from '../../src/retention/index.ts';
import { sessionStateStoreContract } from './session-state-store.contract.ts';

describe('MemorySessionStateStore', () => {
  sessionStateStoreContract((clock) => new MemorySessionStateStore(clock));
});
