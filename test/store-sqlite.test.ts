import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/index.ts';
import { storeContract } from './store.contract.ts';

const dirs = new Map<SqliteStore, string>();
storeContract(
  'SQLite',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
    const store = new SqliteStore(join(dir, 'engine.db'));
    dirs.set(store, dir);
    return store;
  },
  async (store) => {
    await store.close();
    rmSync(dirs.get(store as SqliteStore)!, { recursive: true, force: true });
  },
);
