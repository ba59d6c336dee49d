// What the files of src/oauth share.

/** A client as the authorization server knows it: from its metadata document, or registered dynamically. */
export interface ClientMetadata {
  clientId: string;
  /** Shown on the consent page; a registered client without a name shows its client ID. */
  clientName: string;
  redirectUris: string[];
  source: 'document' | 'registration';
}

/** Where the Engine is reached, read when needed (the listener's port is known only once it listens). */
export type Issuer = () => string;
