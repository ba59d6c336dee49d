// SDK apps: validate, plan and publish a definition, list apps and versions, download a version's package.
import { EngineError } from '../../envelope/index.ts';
import type { AppVersionRow } from '../../store/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

const versionView = (v: AppVersionRow) => ({
  name: v.name,
  version: v.version,
  versionId: v.versionId,
  services: v.services,
  operations: v.operations,
  createdAt: v.createdAt,
});

export function sdkRoutes(deps: ServerDeps): Pick<Handlers, 'validateSdkDefinition' | 'planSdk' | 'publishSdk' | 'listSdks' | 'listSdkVersions' | 'downloadSdkPackage'> {
  const { sdk } = deps;
  return {
    async validateSdkDefinition({ body }) {
      const resolved = await sdk.resolve(body);
      return {
        body: {
          name: resolved.name,
          services: [...resolved.services].map(([name, version]) => ({ name, version })),
          operations: resolved.operations,
        },
      };
    },

    async planSdk({ body }) {
      const { resolved: _r, current: _c, ...plan } = await sdk.plan(body);
      return { body: plan };
    },

    async publishSdk({ body }) {
      return { body: await sdk.publish(body) };
    },

    async listSdks() {
      return { body: { sdks: (await sdk.list()).map(versionView) } };
    },

    async listSdkVersions({ params }) {
      const versions = await sdk.versions(params.name);
      if (!versions.length) throw new EngineError('ENGINE_NOT_FOUND', `no SDK app named '${params.name}'`, { details: { field: 'name' } });
      return { body: { versions: versions.map(versionView) } };
    },

    async downloadSdkPackage({ params }) {
      const versions = await sdk.versions(params.name);
      const version = versions.find((v) => v.version === params.version || v.versionId === params.version);
      if (!version) {
        throw new EngineError('ENGINE_NOT_FOUND', `no version '${params.version}' of SDK app '${params.name}'`, { details: { field: 'version' } });
      }
      const file = await deps.packages.get(version, params.kind);
      return {
        type: file.contentType,
        headers: { 'content-disposition': `attachment; filename="${file.filename}"`, 'x-content-sha256': file.sha256 },
        body: file.bytes,
      };
    },
  };
}
