// OAuth connections per end user: start one, list, delete, and the provider's redirect back.
import { OAUTH_ERROR_CODE } from '../../connections/index.ts';
import { EngineError } from '../../envelope/index.ts';
import { html } from '../answers.ts';
import { resultPage } from '../pages.ts';
import type { Handlers, ServerDeps } from '../types.ts';

export function connectionRoutes(deps: ServerDeps): Pick<Handlers, 'listConnections' | 'deleteConnection' | 'createConnection' | 'oauthCallback'> {
  const { connections } = deps;
  return {
    async listConnections({ params }) {
      return { body: { connections: await connections.list(params.service) } };
    },

    async deleteConnection({ params }) {
      const deleted = await connections.delete(params.connection_id);
      if (!deleted) throw new EngineError('ENGINE_NOT_FOUND', `no connection ${params.connection_id}`, { details: { field: 'connection_id' } });
      return { body: deleted };
    },

    async createConnection({ body }) {
      return { status: 201, body: await connections.start(body.service, body.endUserRef, body.authName) };
    },

    async oauthCallback({ params }) {
      if (params.error || !params.code || !params.state) {
        // Anyone can send a link to this page with any query: of `error`, only an RFC 6749 error
        // code (access_denied, …) is shown, never free text that would speak with the Engine's voice.
        const reason = params.error ? (OAUTH_ERROR_CODE.test(params.error) ? params.error : null) : 'no code';
        const message = reason === null ? 'The provider did not grant access.' : `The provider did not grant access (${reason}).`;
        return html(resultPage({ heading: 'Not connected', message, ok: false }), 400);
      }
      try {
        const c = await connections.complete(params.code, params.state);
        return html(resultPage({ heading: 'Connected', message: `${c.service} is connected for ${c.endUserRef}.`, ok: true }));
      } catch (err) {
        if (err instanceof EngineError) return html(resultPage({ heading: 'Not connected', message: err.message, ok: false }), err.status);
        throw err;
      }
    },
  };
}
