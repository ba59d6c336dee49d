// A client_id, resolved: a URL is a client metadata document, fetched; anything else must be a
// client registered here (./registration.ts).
import type { Store } from '../store/index.ts';
import type { ClientDocuments } from './client-documents.ts';
import { OAuthError } from './errors.ts';
import type { ClientMetadata } from './types.ts';

const MAX_CLIENT_ID = 2000;

export class Clients {
  private readonly store: Store['grants'];
  private readonly documents: ClientDocuments;

  constructor(store: Store['grants'], documents: ClientDocuments) {
    this.store = store;
    this.documents = documents;
  }

  async resolve(clientId: string | undefined): Promise<ClientMetadata> {
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
    if (clientId.length > MAX_CLIENT_ID) throw new OAuthError('invalid_client', `client_id is longer than ${MAX_CLIENT_ID} characters`);
    if (this.documents.isDocumentId(clientId)) return this.documents.metadata(clientId);
    if (/^https?:/i.test(clientId)) throw new OAuthError('invalid_client', `client_id ${clientId}: a client ID URL must use https`);
    const row = await this.store.getClient(clientId);
    if (!row) throw new OAuthError('invalid_client', `client_id ${clientId} is not registered here: register it (RFC 7591) or use a client metadata document URL`);
    return { clientId, clientName: row.clientName ?? clientId, redirectUris: row.redirectUris, source: 'registration' };
  }
}
