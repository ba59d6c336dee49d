// Bundled indexes are read when an operation first needs them: listing, summaries and enabling a
// service in the workspace use the manifest alone, and an index that cannot be read fails the same
// way on every use without being read again.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../src/catalog/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { Workspace } from '../../src/workspace/index.ts';

const root = mkdtempSync(join(tmpdir(), 'svc-catalog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bundled catalog indexes', () => {
  it('serves summaries and workspace views from the manifest, and reads an index only when an operation is needed', async () => {
    const dir = join(root, 'catalog');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify([{ service: 'broken', version: 'v1', title: 'Broken Service', baseUrl: 'https://broken.example', operations: 3, file: 'catalog/broken@v1.json' }]),
    );
    // Not JSON: any read of the index fails.
    writeFileSync(join(dir, 'broken@v1.json'), '{ not json');

    const store = new SqliteStore(join(root, 'engine.db'));
    try {
      const catalog = await Catalog.load(store, dir);
      expect(catalog.list()).toEqual([{ service: 'broken', version: 'v1', title: 'Broken Service', baseUrl: 'https://broken.example', operations: 3, source: 'catalog' }]);
      expect(catalog.summary('broken', 'v1')?.operations).toBe(3);
      expect(catalog.summary('broken', 'v2')).toBeUndefined();
      expect(catalog.has('broken')).toBe(true);

      const workspace = new Workspace(store, catalog);
      expect(await workspace.enable('broken', 'v1')).toMatchObject({ service: 'broken', version: 'v1', baseUrl: 'https://broken.example', baseUrlOverridden: false });
      expect(await workspace.list()).toMatchObject([{ service: 'broken', baseUrl: 'https://broken.example' }]);

      // The index is read on first use; its failure is remembered, so the file is not read again.
      expect(() => catalog.get('broken', 'v1')).toThrow(SyntaxError);
      writeFileSync(join(dir, 'broken@v1.json'), JSON.stringify({ service: 'broken', version: 'v1', title: 'Broken Service', baseUrl: 'https://broken.example', operations: [] }));
      expect(() => catalog.operation('broken', 'v1', 'broken.anything')).toThrow(SyntaxError);
    } finally {
      await store.close();
    }
  });
});
