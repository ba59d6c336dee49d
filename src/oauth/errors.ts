// Refusals of the authorization server, as OAuth names them: RFC 6749 §4.1.2.1 and §5.2, RFC 7591
// §3.2.2 (registration), RFC 8707 §2 (invalid_target), RFC 6750 §3.1 (invalid_token).

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'access_denied'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_token'
  | 'temporarily_unavailable';

/** The HTTP status each code is answered with at the token, registration and revocation endpoints. */
const STATUS: Partial<Record<OAuthErrorCode, number>> = { invalid_client: 401, invalid_token: 401, temporarily_unavailable: 503 };

/**
 * One refusal: its code, and a description naming the parameter at fault. Descriptions never
 * repeat a secret (a code, a token, a verifier), only which parameter held it.
 */
export class OAuthError extends Error {
  override name = 'OAuthError';
  readonly code: OAuthErrorCode;
  readonly status: number;

  constructor(code: OAuthErrorCode, description: string, status?: number) {
    super(description);
    this.code = code;
    this.status = status ?? STATUS[code] ?? 400;
  }

  /** The JSON body of RFC 6749 §5.2. */
  get body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}
