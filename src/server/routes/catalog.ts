// The catalog: the services that can be enabled.
import type { Handlers, ServerDeps } from '../types.ts';

export function catalogRoutes(deps: ServerDeps): Pick<Handlers, 'listCatalogServices'> {
  const { catalog } = deps;
  return {
    async listCatalogServices({ params }) {
      await catalog.refresh(); // imports made on other replicas
      const byName = new Map<string, { name: string; title: string; versions: unknown[] }>();
      for (const s of catalog.list(params.q)) {
        const entry = byName.get(s.service) ?? { name: s.service, title: s.title, versions: [] };
        entry.versions.push({ version: s.version, operations: s.operations, source: s.source, baseUrl: s.baseUrl });
        byName.set(s.service, entry);
      }
      return { body: { services: [...byName.values()] } };
    },
  };
}
