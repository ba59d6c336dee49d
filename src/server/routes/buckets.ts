// Buckets (/v1/buckets): the secrets and the OAuth clients services' auth uses.
import { DEFAULT_BUCKET, credentialValueProblem } from '../../credentials/index.ts';
import { EngineError } from '../../envelope/index.ts';
import type { Handlers, ServerDeps } from '../types.ts';

/** Refuses a bucket other than the one this workspace has (404 naming `bucket`). */
function knownBucket(bucket: string): void {
  if (bucket !== DEFAULT_BUCKET) {
    throw new EngineError('ENGINE_NOT_FOUND', `unknown bucket '${bucket}'; this workspace has the '${DEFAULT_BUCKET}' bucket`, { details: { field: 'bucket' } });
  }
}

export function bucketRoutes(deps: ServerDeps): Pick<Handlers, 'listBuckets' | 'setSecret' | 'deleteSecret' | 'setOAuthClient' | 'deleteOAuthClient'> {
  const { catalog, workspace, vault, connections } = deps;
  return {
    async listBuckets() {
      const secrets = await vault.list();
      const names = new Set([DEFAULT_BUCKET, ...secrets.map((s) => s.bucket)]);
      return {
        body: {
          buckets: [...names].sort().map((name) => ({
            name,
            secrets: secrets.filter((s) => s.bucket === name).map((s) => ({ service: s.service, origin: s.origin, updatedAt: s.updatedAt })),
          })),
        },
      };
    },

    async setSecret({ params, body }) {
      knownBucket(params.bucket);
      // Every version counts for where the secret may go: read what other replicas imported.
      await catalog.refresh();
      if (!catalog.has(params.service)) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${params.service}'`, { details: { field: 'service' } });
      }
      const problem = credentialValueProblem(body.value);
      if (problem) throw new EngineError('ENGINE_INVALID_INPUT', `value ${problem}`, { details: { field: 'value' } });
      // Bound to where the service is reached now: repointing it later does not take the secret along.
      const origin = await workspace.credentialOrigin(params.service);
      if (origin === null) throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${params.service}'`, { details: { field: 'service' } });
      await vault.set(params.bucket, params.service, body.value, origin);
      return { status: 204 };
    },

    async deleteSecret({ params }) {
      knownBucket(params.bucket);
      // Any service name: a secret outlives its service being removed from the catalog.
      if (!(await vault.delete(params.bucket, params.service))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no secret is set for '${params.service}' in bucket '${params.bucket}'`, { details: { field: 'service' } });
      }
      return { status: 204 };
    },

    async setOAuthClient({ params, body }) {
      knownBucket(params.bucket);
      for (const field of ['clientId', 'clientSecret'] as const) {
        const problem = credentialValueProblem(body[field]);
        if (problem) throw new EngineError('ENGINE_INVALID_INPUT', `${field} ${problem}`, { details: { field } });
      }
      await connections.setClient(params.service, { clientId: body.clientId, clientSecret: body.clientSecret });
      return { status: 204 };
    },

    async deleteOAuthClient({ params }) {
      knownBucket(params.bucket);
      if (!(await connections.deleteClient(params.service))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no OAuth client is set for '${params.service}' in bucket '${params.bucket}'`, { details: { field: 'service' } });
      }
      return { status: 204 };
    },
  };
}
