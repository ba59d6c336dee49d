// The Engine as the OAuth authorization server of its MCP servers, put together from the parts of
// this folder: discovery (./metadata.ts), clients (./client-documents.ts, ./registration.ts),
// consent (./authorize.ts, ./consent.ts), tokens (./token.ts, ./revocation.ts) and the resource
// server's check of access tokens (./access.ts).
import type { EgressPolicy } from '../egress/index.ts';
import type { Tokens } from '../identity/index.ts';
import type { Store } from '../store/index.ts';
import { AccessTokens } from './access.ts';
import { Authorizations } from './authorize.ts';
import { ClientDocuments } from './client-documents.ts';
import { Clients } from './clients.ts';
import { ConsentForms } from './consent.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.ts';
import { registerClient } from './registration.ts';
import { revokeByToken } from './revocation.ts';
import { TokenEndpoint } from './token.ts';
import type { Issuer } from './types.ts';

export interface AuthorizationServerOptions {
  store: Store;
  tokens: Tokens;
  issuer: Issuer;
  /** Keys the consent forms' CSRF tokens (derived from the master key: the same on every replica). */
  consentKey: Buffer;
  accessTokenTtlSeconds: number;
  codeTtlSeconds: number;
  /** Where client ID metadata documents may be fetched from: the egress policy of provider calls. */
  egress: EgressPolicy;
  /** Tests only: client ID metadata documents on loopback http URLs. */
  loopbackClientIds: boolean;
}

export class AuthorizationServer {
  readonly issuer: Issuer;
  readonly access: AccessTokens;
  readonly authorizations: Authorizations;
  readonly consentForms: ConsentForms;
  readonly tokenEndpoint: TokenEndpoint;
  private readonly documents: ClientDocuments;
  private readonly store: Store;
  private readonly tokens: Tokens;

  constructor(options: AuthorizationServerOptions) {
    const { store, tokens, issuer } = options;
    this.store = store;
    this.tokens = tokens;
    this.issuer = issuer;
    this.documents = new ClientDocuments({ egress: options.egress, allowLoopbackHttp: options.loopbackClientIds });
    const clients = new Clients(store.grants, this.documents);
    this.authorizations = new Authorizations({ clients, store, issuer, codeTtlSeconds: options.codeTtlSeconds });
    this.consentForms = new ConsentForms(options.consentKey);
    this.tokenEndpoint = new TokenEndpoint({ store, tokens, accessTtlSeconds: options.accessTokenTtlSeconds });
    this.access = new AccessTokens({ store, tokens, issuer });
  }

  metadata() {
    return authorizationServerMetadata(this.issuer());
  }

  /** The protected resource metadata of an MCP server version; null when there is no such version. */
  async resourceMetadata(versionId: string) {
    const version = await this.store.getVersion('mcp', versionId);
    return version ? protectedResourceMetadata(this.issuer(), version) : null;
  }

  register(body: unknown) {
    return registerClient(this.store.grants, body);
  }

  revoke(form: Record<string, string | undefined>) {
    return revokeByToken({ store: this.store, tokens: this.tokens }, form);
  }

  async close() {
    await this.documents.close();
  }
}
