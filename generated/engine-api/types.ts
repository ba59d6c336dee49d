// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
/* eslint-disable */
export interface paths {
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Engine as OAuth authorization server of its MCP servers (RFC 8414 metadata). */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp/{version_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        /** An MCP server version as an OAuth protected resource (RFC 9728): its resource identifier and the Engine as its authorization server. */
        get: operations["getProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same authorization server metadata at the OpenID Connect discovery path, for clients that look there. */
        get: operations["getOpenIdConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness. 200 while the process serves HTTP; checks no dependency (use /readyz for those). */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/{version_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        /** MCP Streamable HTTP: The open session’s SSE stream. */
        get: operations["mcpGet"];
        put?: never;
        /** MCP Streamable HTTP: JSON-RPC messages: initialize, notifications and requests (answered as JSON or SSE). */
        post: operations["mcpPost"];
        /** MCP Streamable HTTP: Ends the session and releases its state; the token stays valid. */
        delete: operations["mcpDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/{version_id}/sse": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        /** MCP Streamable HTTP: The open session’s SSE stream. Transitional route for older clients; answers with a Deprecation header. */
        get: operations["mcpTransitionalGet"];
        put?: never;
        /** MCP Streamable HTTP: JSON-RPC messages: initialize, notifications and requests (answered as JSON or SSE). Transitional route for older clients; answers with a Deprecation header. */
        post: operations["mcpTransitionalPost"];
        /** MCP Streamable HTTP: Ends the session and releases its state; the token stays valid. Transitional route for older clients; answers with a Deprecation header. */
        delete: operations["mcpTransitionalDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of this Engine process (text exposition format).
         * @description Requests and latencies per surface (`svc_requests_total`, `svc_request_duration_seconds`),
         *     MCP execute outcomes by code (`svc_execute_outcomes_total`), result snapshot bytes
         *     (`svc_snapshot_bytes`, `svc_snapshot_bytes_stored_total`), OAuth refreshes by result
         *     (`svc_oauth_refreshes_total`) and the Node.js process defaults. Per process: with several
         *     replicas, scrape each one and sum.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The authorization endpoint (OAuth 2.1, PKCE S256, RFC 8707 resource) - the consent page an MCP client sends a person to (HTML).
         * @description A request whose client or redirect URI cannot be trusted is answered with a page saying why
         *     (400); any other refusal is redirected to the client with an RFC 6749 error.
         */
        get: operations["showAuthorization"];
        put?: never;
        /** Approve (after signing in) or deny an MCP client's access, narrowing its operations and lifetime (HTML form post). */
        post: operations["submitAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dynamic Client Registration (RFC 7591) of an MCP client. Every client is public: PKCE, no secret. */
        post: operations["registerOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token revocation (RFC 7009) - revoking an access or refresh token revokes its whole grant. */
        post: operations["revokeOAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The token endpoint: an authorization code (with its PKCE verifier) or a refresh token for an access token of one MCP server.
         * @description Refusals are RFC 6749 §5.2 errors. A refresh token is single-use: each exchange returns a
         *     new one, and presenting a spent one revokes the grant (as does presenting a code twice).
         */
        post: operations["exchangeOAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness. 200 when every dependency (the database, and Redis when REDIS_URL is set) answers, else 503; each one's result in `checks`, and how execute scripts are confined in `sandbox`. */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in page where a person approves a device code (HTML). */
        get: operations["showSignin"];
        put?: never;
        /** Approve or deny a device code after signing in (HTML form post). */
        post: operations["submitSignin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{version_id}/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Call one operation selected in an SDK version. */
        post: operations["createExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every CLI credential of this Engine (each grants full access), oldest first; never their values. */
        get: operations["listCliCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/credentials/{credential_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a CLI credential by its ID (any subject's; the one presented too). */
        delete: operations["revokeCliCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an OAuth 2.0 device authorization (RFC 8628) for svc-cli.
         * @description The approval page shows the address and User-Agent this request came from and when, and how
         *     long the credential will live: the person approving can tell whether it is their own.
         */
        post: operations["startDeviceAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the presented CLI credential. */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Poll for the CLI credential of an approved device code (RFC 8628 §3.4).
         * @description While the person has not decided, answers 400 with `error: authorization_pending` (or
         *     `slow_down` when polled faster than `interval`); `access_denied` and `expired_token` are final.
         */
        post: operations["exchangeDeviceCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity behind the presented CLI credential. */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/buckets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Buckets and the services that have a secret in each (values are never returned). */
        get: operations["listBuckets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/buckets/{bucket}/oauth-clients/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        get?: never;
        /** Store the OAuth client a service's oauth2 auth uses. The client secret is never returned. */
        put: operations["setOAuthClient"];
        post?: never;
        /** Delete a service's OAuth client. New consents and token refreshes fail with ENGINE_CREDENTIAL_MISSING; access tokens already issued work until they expire. 404 when none is set. */
        delete: operations["deleteOAuthClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/buckets/{bucket}/secrets/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        get?: never;
        /** Store the secret a service's auth uses. Effective immediately; never returned. */
        put: operations["setSecret"];
        post?: never;
        /** Delete the secret a service's auth uses. From the next request on, calls that need it fail with ENGINE_CREDENTIAL_MISSING; 404 when none is set. */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Services that can be enabled (bundled catalog and imported services). */
        get: operations["listCatalogServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth connections per end user (tokens are never returned). */
        get: operations["listConnections"];
        put?: never;
        /** Start an OAuth authorization-code consent for an end user; returns the consent URL. */
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{connection_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connection_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an end user's connection: the Engine forgets its tokens, and calls routed to it fail with ENGINE_CREDENTIAL_MISSING until the end user connects again. Then, when the service declares a token revocation endpoint (engine.yaml `revocationUrl`), the Engine asks the provider to revoke the grant (RFC 7009) and says whether it confirmed; the local delete stands either way. 404 when there is no such connection. */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** MCP servers with their active version and runtime URL. */
        get: operations["listMcpServers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/{name}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The MCP server name, or one of its version IDs. */
                name: string;
            };
            cookie?: never;
        };
        /** Tokens of an MCP server with allowlist, expiry and last use. */
        get: operations["listMcpTokens"];
        put?: never;
        /** Issue a narrowed MCP token. The token value is returned only in this answer. */
        post: operations["createMcpToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calls that MCP servers' requireApproval stopped and that still wait for a person (not approved, not used, not expired), newest first, at most 100. */
        get: operations["listMcpApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/approvals/{approval_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a call an MCP server's requireApproval stopped; the agent's re-run of the same call with the same token passes once, within the approval's 15 minutes. */
        post: operations["approveMcpCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What deploying this MCP definition would change. */
        post: operations["planMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy an immutable MCP version. The unrestricted token is returned on the first deploy only. */
        post: operations["publishMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the provider redirects after consent (HTML). */
        get: operations["oauthCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SDK apps and their latest version. */
        get: operations["listSdks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/{name}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: components["schemas"]["SdkName"];
            };
            cookie?: never;
        };
        /** Execution tokens of an SDK app (never their values), with expiry and last use. */
        get: operations["listSdkTokens"];
        put?: never;
        /** Issue another execution token for every version of an SDK app (to rotate one). The value is returned only in this answer. */
        post: operations["createSdkToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/{name}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every published version of an SDK app, newest first. */
        get: operations["listSdkVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/{name}/versions/{version}/packages/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A typed package or the README of a published SDK version.
         * @description Built from the immutable version with the Engine's templates: byte-identical on every
         *     download. `typescript` is an npm tarball, `python-wheel` and `python-sdist` are pip
         *     installable, `readme` is the version's README.md. The file name is in Content-Disposition
         *     and the SHA-256 of the bytes in X-Content-SHA256.
         */
        get: operations["downloadSdkPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What publishing this definition would change, and the version label it would get. */
        post: operations["planSdk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish an immutable SDK version. The execution token is returned on the first publish only. */
        post: operations["publishSdk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdks/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check an SDK definition against the workspace and catalog. */
        post: operations["validateSdkDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an MCP or SDK execution token by its ID. */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/versions/{version_id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Activity receipts of a version, newest first, a page at a time. */
        get: operations["listReceipts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a service that is not in the catalog from an OpenAPI 3.x document. */
        post: operations["importWorkspaceService"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Services enabled in the workspace, and the revision they make. */
        get: operations["listWorkspaceServices"];
        /**
         * Enable exactly these services (any other is disabled), in one step.
         * @description Every entry is checked before anything changes; then the whole set is written at once. With
         *     `revision` (from a GET), only while the workspace is still at that revision: when another
         *     change landed since, the answer is 409 ENGINE_CONFLICT and nothing changed. A service whose
         *     version and base URL stay keeps its enabledAt.
         */
        put: operations["applyWorkspace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace/services/{service}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        get?: never;
        /** Enable a service at a version, optionally overriding its base URL. */
        put: operations["enableWorkspaceService"];
        post?: never;
        /** Disable a service. */
        delete: operations["disableWorkspaceService"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiKeyAuth: {
            /** @enum {unknown} */
            in: "header" | "query";
            name: string;
            prefix?: string;
            /** @constant */
            type: "api_key";
        };
        /** @description One provider attempt of a retried call. */
        Attempt: {
            /** @description Time spent on this attempt. */
            durationMs: number;
            /** @description The Engine's code for an attempt that got no answer (PROVIDER_UNREACHABLE, PROVIDER_TIMEOUT, ENGINE_OUTCOME_UNKNOWN). */
            error?: string;
            /** @description The page this attempt read */
            page?: number;
            /** @description The provider's HTTP status, when it answered. */
            status?: number;
            /** @description Time waited before this attempt (0 for the first). */
            waitMs: number;
        };
        AuthorizationServerMetadata: {
            authorization_endpoint: string;
            client_id_metadata_document_supported?: boolean;
            code_challenge_methods_supported: string[];
            issuer: string;
            registration_endpoint?: string;
            response_types_supported: string[];
            revocation_endpoint?: string;
            token_endpoint: string;
        };
        /** Format: uri */
        BaseUrl: string;
        /** @description Fixed selectors; authoritative over the caller's. */
        Binding: {
            authName?: string;
            endUserRef?: string;
            resourceId?: string;
        } | null;
        Bucket: {
            name: string;
            secrets: {
                /** @description The only origin (scheme://host:port) the secret is sent to: where its service was reached when it was set. Null when the Engine cannot tell (stored before origins were bound and not yet bound by a restart, or a record that does not open). */
                origin: string | null;
                service: string;
                /** Format: date-time */
                updatedAt: string;
            }[];
        };
        CatalogService: {
            name: string;
            title?: string;
            versions: {
                baseUrl?: string;
                /** @description Import answers only; operations of the description the Engine cannot send as described, and why. */
                omitted?: {
                    field: string;
                    operationId: string;
                    reason: string;
                }[];
                operations: number;
                /** @enum {unknown} */
                source: "catalog" | "imported";
                version: string;
                /** @description Import answers only; what was imported but cannot be read as described: a `$ref` of a response schema that names nothing or closes a cycle (no call checks an answer against it; typed packages type that value as unknown and search_docs shows the `$ref` as written). */
                warnings?: {
                    field: string;
                    operationId: string;
                    reason: string;
                }[];
            }[];
        };
        Connection: {
            accessExpiresAt?: string | null;
            authName: string;
            /**
             * @description When the end user last completed the provider's consent for this connection. Only a
             *     completed consent changes it, never a token refresh (a connection made before the Engine
             *     recorded it shows its createdAt).
             */
            consentedAt: string;
            createdAt: string;
            endUserRef: string;
            id: string;
            service: string;
            /** @enum {unknown} */
            status: "active" | "needs_reauth";
            /** @description The last change of any kind, a token refresh included. */
            updatedAt?: string;
        };
        /**
         * @description Whether the provider confirmed revoking a deleted connection's grant (RFC 7009). When it did
         *     not, `reason` says why and `message` says it in words (never with a token or secret in it):
         *     `not_supported`, the service declares no revocation endpoint (revoke the grant in the
         *     provider's settings); `not_attempted`, the Engine did not send the request (the service is no
         *     longer enabled, its OAuth client was deleted, or the service is now reached somewhere other
         *     than where the tokens were issued); `unreachable`, the endpoint did not answer within the token
         *     request timeout; `refused`, it answered an error (its RFC 6749 error code or HTTP status).
         */
        ConnectionRevocation: {
            message?: string;
            /** @enum {unknown} */
            reason?: "not_supported" | "not_attempted" | "unreachable" | "refused";
            revoked: boolean;
        };
        /**
         * @description Present only when a caller bound (`pagination.maxPages`) stopped a traversal before the
         *     provider's last page: more pages follow. `input` holds what to add to the same input to read
         *     on (the cursor, offset, page or Link-header page parameter); absent when the next page is
         *     reachable only through a link the Engine cannot take as input.
         */
        Continuation: {
            input?: Record<string, never>;
            /** @constant */
            more: true;
        };
        DependencyCheck: {
            /** @description Which implementation answered, e.g. `sqlite`, `postgres` or `redis`. */
            backend?: string;
            /** @description A short error code (e.g. `ECONNREFUSED`, `TIMEOUT`, a SQLSTATE); never a message or address. */
            error?: string;
            /** @description Time the probe took (up to its timeout). */
            latencyMs: number;
            /** @enum {unknown} */
            status: "ok" | "unavailable";
        };
        Envelope: {
            continuation?: components["schemas"]["Continuation"];
            data: unknown;
            error: null | components["schemas"]["EnvelopeError"];
            ok: boolean;
            status: number;
        };
        EnvelopeError: {
            code: string;
            details?: Record<string, never>;
            message: string;
            recovery?: Record<string, never>;
            retryable: boolean;
        };
        McpApproval: {
            approvedAt: string | null;
            approvedBy: string | null;
            createdAt: string;
            /** @description The re-run must come before this. */
            expiresAt: string;
            id: string;
            operation: string;
            /** @description A summary of the call's params: their shape, values shortened; never a secret. */
            params: Record<string, never>;
            /** @description The MCP server name. */
            server: string;
            usedAt: string | null;
            versionId: string;
        };
        McpDefinition: {
            name: components["schemas"]["SdkName"];
            operations: string[];
            /**
             * @description Operations whose calls in `execute` wait for a person's approval (`svc-cli mcp approve`,
             *     or the MCP client's elicitation): public operation IDs with `*` suffix globs, as token
             *     allowlists take them, or `destructive` for every selected operation whose hint is
             *     destructive. Each entry must match a selected operation.
             */
            requireApproval?: string[];
            services: string[];
        };
        McpServer: {
            active: boolean;
            /** Format: date-time */
            createdAt: string;
            name: string;
            /** @description The `<service>=<version>` pairs this version's operations call. */
            services: string[];
            url: string;
            version: string;
            versionId: string;
        };
        McpToken: {
            /** @description null means every operation. */
            allow: string[] | null;
            binding?: components["schemas"]["Binding"];
            /** @description Present for a grant an MCP client obtained with OAuth (its ID is revoked like a token's); absent for a static token. */
            client?: {
                approvedBy: string;
                /** @description The client_id: a metadata document URL, or an ID from registration. */
                id: string;
                name: string;
                redirectUri: string;
                /** @description The one MCP server version its access tokens are valid on. */
                versionId: string;
            };
            createdAt: string;
            expiresAt: string | null;
            id: string;
            lastUsedAt: string | null;
            /** @description The token calls only read-only operations. */
            readOnly: boolean;
            revokedAt: string | null;
        };
        /** @description An OAuth refusal (RFC 6749 §5.2, RFC 7591 §3.2.2); the description names the parameter at fault and never repeats a secret. */
        OAuthError: {
            error: string;
            error_description?: string;
        };
        /**
         * @description `{ maxPages: N }`. Checked by the Engine against the operation's pagination policy (N a
         *     positive integer strictly lower than its engine_max_pages, on an operation whose policy
         *     allows a caller bound); anything else is refused as ENGINE_PAGINATION_INVALID before
         *     any provider request.
         */
        PaginationBound: {
            maxPages?: unknown;
        } & {
            [key: string]: unknown;
        };
        PublishResult: {
            name: string;
            /** @description false when nothing changed and no version was created. */
            published: boolean;
            /** @description The execution token; present on the first publish only. */
            token?: string;
            /** @description The MCP runtime URL (MCP deploys only). */
            url?: string;
            version: string;
            versionId: string;
        };
        Readiness: {
            /** @description One entry per dependency (`database`; `redis` when REDIS_URL is set), keyed by its name. */
            checks: {
                [key: string]: components["schemas"]["DependencyCheck"];
            };
            /** @description How the processes that run MCP `execute` scripts are confined (docs/operations/security.md). */
            sandbox: {
                /**
                 * @description `bwrap`: Node's permission model inside bubblewrap (own network, PID and mount namespaces); `permission`: the permission model alone.
                 * @enum {unknown}
                 */
                confinement: "bwrap" | "permission";
            };
            /** @enum {unknown} */
            status: "ready" | "unavailable";
        };
        Receipt: {
            /** @description Present only when a provider request was sent more than once (docs/guides/retries-and-idempotency.md). */
            attempts?: components["schemas"]["Attempt"][];
            bytes: number;
            errorCode?: string | null;
            id: string;
            ok: boolean;
            operation: string;
            pages: number;
            providerDurationMs: number;
            sha256?: string | null;
            /** Format: date-time */
            startedAt: string;
            status: number;
            /** @enum {unknown} */
            surface: "rest" | "grpc" | "mcp";
            tokenId?: string | null;
            /** @description The W3C trace ID the call ran in (the caller's, when its request carried a `traceparent`). Present only while the Engine traced (docs/operations/observability.md). */
            traceId?: string;
            versionId: string;
        };
        ResolvedSdkDefinition: {
            name: string;
            /** @description Public operation IDs, sorted. */
            operations: string[];
            services: {
                name: string;
                version: string;
            }[];
        };
        SdkDefinition: {
            name: components["schemas"]["SdkName"];
            operations: string[];
            services: string[];
        };
        SdkName: string;
        SdkPlan: {
            changes: {
                /** @enum {unknown} */
                action: "+" | "-" | "~";
                from?: string;
                id: string;
                /**
                 * @description approval: an operation whose calls start or stop waiting for a person (MCP requireApproval).
                 * @enum {unknown}
                 */
                kind: "service" | "operation" | "approval";
                to?: string;
            }[];
            currentVersion: string | null;
            name: string;
            /** @description null when nothing would change. */
            nextVersion: string | null;
            summary: {
                add: number;
                change: number;
                remove: number;
            };
        };
        SdkToken: {
            createdAt: string;
            expiresAt: string | null;
            id: string;
            lastUsedAt: string | null;
            /** @description The token calls only read-only operations. */
            readOnly: boolean;
            revokedAt: string | null;
        };
        SdkVersion: {
            /** Format: date-time */
            createdAt: string;
            name: string;
            operations: string[];
            services: string[];
            version: string;
            versionId: string;
        };
        /**
         * @description Non-secret routing for services with per-end-user OAuth connections. A token's fixed
         *     binding overrides them.
         */
        Selectors: {
            authName?: string;
            /** @enum {unknown} */
            authType?: "api_key" | "oauth2";
            endUserRef?: string;
            resourceId?: string;
        };
        ServiceNameValue: string;
        ServiceVersion: string;
        /** @description What the enabled services are, as one opaque value; it changes with every change to them. */
        WorkspaceRevision: string;
        WorkspaceService: {
            baseUrl: string;
            baseUrlOverridden?: boolean;
            /** Format: date-time */
            enabledAt: string;
            name: string;
            version: string;
        };
        WorkspaceState: {
            revision: components["schemas"]["WorkspaceRevision"];
            services: components["schemas"]["WorkspaceService"][];
        };
    };
    responses: {
        /** @description The Engine refused or failed; the HTTP status equals `status`. */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Envelope"];
            };
        };
        /** @description A refusal a person sees, as an HTML page; a malformed parameter or form field is refused with the envelope. */
        PageRefusal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Envelope"];
                "text/html": string;
            };
        };
    };
    parameters: {
        /**
         * @description The call's idempotency key (1 to 200 visible ASCII characters). Within 24 hours the same key and
         *     request answers the first call's answer (header `Idempotent-Replayed: true`) without calling the
         *     provider again; another request is 409 ENGINE_IDEMPOTENCY_CONFLICT, and so is a call still
         *     running with it (retryable). docs/guides/retries-and-idempotency.md.
         */
        IdempotencyKey: string;
        ServiceName: components["schemas"]["ServiceNameValue"];
        VersionId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
        };
    };
    getProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authorization_servers: string[];
                        bearer_methods_supported?: string[];
                        resource: string;
                        resource_name?: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getOpenIdConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    mcpGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mcpPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mcpDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mcpTransitionalGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mcpTransitionalPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mcpTransitionalDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC response or SSE stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Accepted (notifications). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing session or protocol-version header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Token of another MCP server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or ended session: MCP_SESSION_UNAVAILABLE with its recovery contract. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    showAuthorization: {
        parameters: {
            query?: {
                client_id?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                redirect_uri?: string;
                resource?: string;
                response_type?: string;
                scope?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The consent page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A refusal sent back to the client's redirect URI. */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["PageRefusal"];
        };
    };
    submitAuthorization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id: string;
                    code_challenge: string;
                    code_challenge_method?: string;
                    csrf: string;
                    /** @enum {unknown} */
                    decision: "approve" | "deny";
                    lifetime?: string;
                    password?: string;
                    redirect_uri: string;
                    resource: string;
                    response_type?: string;
                    state?: string;
                    username?: string;
                } & {
                    [key: string]: "on";
                };
            };
        };
        responses: {
            /** @description The answer sent to the client's redirect URI (a code */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description The form again, saying what went wrong: 400 no operation kept; 401 a wrong account or
             *     password; 403 a post from another origin, or a form not opened in this browser or older
             *     than 15 minutes; 429 too many failed sign-ins (with Retry-After).
             */
            default: components["responses"]["PageRefusal"];
        };
    };
    registerOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The client: client_id, redirect_uris, token_endpoint_auth_method none. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_redirect_uri, invalid_client_metadata (RFC 7591 §3.2.2) or invalid_request (the body's type, size or encoding). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: more than 30 registrations a minute from one address (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description server_error. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    revokeOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": Record<string, never>;
            };
        };
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request or unauthorized_client. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description server_error. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    exchangeOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": Record<string, never>;
            };
        };
        responses: {
            /** @description access_token, token_type Bearer, expires_in, refresh_token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request, invalid_grant, invalid_target or unsupported_grant_type. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description server_error. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description A dependency did not answer; `checks` says which. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    showSignin: {
        parameters: {
            query?: {
                user_code?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    submitSignin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {unknown} */
                    decision: "approve" | "deny";
                    password: string;
                    user_code: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description The result page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /**
             * @description The form again, saying what went wrong: 400 a code unknown, used, expired or no longer
             *     waiting; 401 a wrong account or password; 403 a post from another origin; 429 too many
             *     failed sign-ins (with Retry-After). A malformed form field is refused with the envelope.
             */
            default: components["responses"]["PageRefusal"];
        };
    };
    createExecution: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The call's idempotency key (1 to 200 visible ASCII characters). Within 24 hours the same key and
                 *     request answers the first call's answer (header `Idempotent-Replayed: true`) without calling the
                 *     provider again; another request is 409 ENGINE_IDEMPOTENCY_CONFLICT, and so is a call still
                 *     running with it (retryable). docs/guides/retries-and-idempotency.md.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The call's idempotency key, as the `Idempotency-Key` header gives it (one or the other, or
                     *     both the same): the same key and request within 24 hours answers the first call's answer.
                     */
                    idempotencyKey?: string;
                    /** @description The operation's parameters by name, and its request body under `body`. */
                    input?: {
                        [key: string]: unknown;
                    };
                    /** @description Public operation ID (`<service>.<provider operationId>`). */
                    operation: string;
                    /**
                     * @description Physical operations: `{ maxPages: N }` (see PaginationBound). Unified operations: keyed by
                     *     target, `{ <target>: { maxPages: N } }`. Checked by the Engine before any dispatch.
                     */
                    pagination?: {
                        [key: string]: unknown;
                    };
                    /** @description Physical operations: Selectors. Unified operations: keyed by target, `{ <target>: Selectors }`. */
                    selectors?: {
                        [key: string]: unknown;
                    };
                    /** @description Unified operations only; the exact binding steps to run (required). */
                    targets?: string[];
                };
            };
        };
        responses: {
            /** @description The provider answered; `ok` may still be false with the provider's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listCliCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credentials, live, expired and revoked; `current` marks the one presented. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        credentials: {
                            /** Format: date-time */
                            createdAt: string;
                            current: boolean;
                            expiresAt: string | null;
                            id: string;
                            lastUsedAt: string | null;
                            revokedAt: string | null;
                            subject: string;
                        }[];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    revokeCliCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                credential_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    startDeviceAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Shown on the approval page (its first 200 characters, control characters replaced). */
                "User-Agent"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    client_id?: string;
                    /** @description Lifetime of the CLI credential, in seconds from when it is issued (default 90 days, at most 365). */
                    credential_expires_in?: number;
                };
            };
        };
        responses: {
            /** @description Device and user codes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        device_code: string;
                        expires_in: number;
                        interval: number;
                        user_code: string;
                        verification_uri: string;
                        verification_uri_complete: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    exchangeDeviceCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client_id?: string;
                    device_code: string;
                    /** @constant */
                    grant_type: "urn:ietf:params:oauth:grant-type:device_code";
                };
            };
        };
        responses: {
            /** @description The subject-scoped CLI credential. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @description Seconds until the credential expires. */
                        expires_in: number;
                        subject: string;
                        /** @constant */
                        token_type: "Bearer";
                    };
                };
            };
            /** @description RFC 8628 error. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {unknown} */
                        error: "authorization_pending" | "slow_down" | "access_denied" | "expired_token" | "invalid_grant";
                        error_description?: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        credentialId: string;
                        expiresAt?: string | null;
                        subject: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listBuckets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Buckets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        buckets: components["schemas"]["Bucket"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    setOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientId: string;
                    clientSecret: string;
                };
            };
        };
        responses: {
            /** @description Stored. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    deleteOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    setSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: string;
                };
            };
        };
        responses: {
            /** @description Stored. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                bucket: string;
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    listCatalogServices: {
        parameters: {
            query?: {
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching services. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        services: components["schemas"]["CatalogService"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listConnections: {
        parameters: {
            query?: {
                service?: components["schemas"]["ServiceNameValue"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connections. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: components["schemas"]["Connection"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    authName?: string;
                    endUserRef: string;
                    service: components["schemas"]["ServiceNameValue"];
                };
            };
        };
        responses: {
            /** @description The consent URL to open. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authorizeUrl: string;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; `revocation` says whether the provider revoked the grant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: components["schemas"]["Connection"];
                        revocation: components["schemas"]["ConnectionRevocation"];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listMcpServers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MCP servers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        servers: components["schemas"]["McpServer"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listMcpTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The MCP server name, or one of its version IDs. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["McpToken"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createMcpToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The MCP server name, or one of its version IDs. */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    allow: string[];
                    binding?: components["schemas"]["Binding"];
                    /** Format: date-time */
                    expiresAt?: string | null;
                    /** @description true: the token calls only read-only operations (`read_only` in search_docs); any other call is refused with ENGINE_FORBIDDEN_OPERATION before anything is sent. */
                    readOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description The new token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allow: string[];
                        binding?: components["schemas"]["Binding"];
                        expiresAt: string | null;
                        id: string;
                        readOnly: boolean;
                        token: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listMcpApprovals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The waiting approvals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals: components["schemas"]["McpApproval"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    approveMcpCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                approval_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval, now approved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpApproval"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    planMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpDefinition"];
            };
        };
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SdkPlan"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    publishMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpDefinition"];
            };
        };
        responses: {
            /** @description The deployed (or unchanged active) version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishResult"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    oauthCallback: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The result page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /**
             * @description The result page saying why the service is not connected (the provider's refusal, or a
             *     consent the Engine cannot complete, with its status). A malformed parameter is refused
             *     with the envelope.
             */
            default: components["responses"]["PageRefusal"];
        };
    };
    listSdks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SDK apps. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sdks: components["schemas"]["SdkVersion"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listSdkTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: components["schemas"]["SdkName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["SdkToken"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    createSdkToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: components["schemas"]["SdkName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    expiresAt?: string | null;
                    /** @description true: the token calls only read-only operations; any other call is refused with ENGINE_FORBIDDEN_OPERATION before anything is sent. */
                    readOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description The new token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        expiresAt: string | null;
                        id: string;
                        readOnly: boolean;
                        token: string;
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listSdkVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: components["schemas"]["SdkName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: components["schemas"]["SdkVersion"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    downloadSdkPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kind: "typescript" | "python-wheel" | "python-sdist" | "readme";
                name: components["schemas"]["SdkName"];
                /** @description The version label (`1.2.0`) or version ID (`ver_…`). */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package file. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "X-Content-SHA256"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                    "application/zip": string;
                    "text/markdown": string;
                };
            };
            default: components["responses"]["Error"];
        };
    };
    planSdk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SdkDefinition"];
            };
        };
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SdkPlan"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    publishSdk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SdkDefinition"];
            };
        };
        responses: {
            /** @description The published (or unchanged latest) version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishResult"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    validateSdkDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SdkDefinition"];
            };
        };
        responses: {
            /** @description The definition with its operations expanded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResolvedSdkDefinition"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    revokeToken: {
        parameters: {
            query?: {
                /** @description Revoke only a token of this kind (`svc-cli mcp token revoke` sends mcp, `sdk token revoke` sdk); another kind is a 404. */
                kind?: "sdk" | "mcp";
            };
            header?: never;
            path: {
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    listReceipts: {
        parameters: {
            query?: {
                /** @description Only receipts older than this one (the `next` of the previous page). */
                before?: string;
                limit?: number;
                /** @description Only the receipts of calls that ran in this trace (a W3C trace ID, 32 lowercase hex digits, as a receipt's `traceId` or a caller's `traceparent` carries it), looked for among the 10,000 receipts before `before` (the newest by default). `next` goes on searching older ones, so a page may be short or empty while `next` is not null. */
                trace_id?: string;
            };
            header?: never;
            path: {
                version_id: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Receipts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass as `before` for the next, older page; null when nothing older is left (to search, with `trace_id`). */
                        next: string | null;
                        receipts: components["schemas"]["Receipt"][];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    importWorkspaceService: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    auth?: components["schemas"]["ApiKeyAuth"];
                    baseUrl?: components["schemas"]["BaseUrl"];
                    /** @description The OpenAPI document, as JSON or YAML text. */
                    document: string;
                    /** @description The provider honours an idempotency key in this header; a call given a key sends one derived from it there, and may then be retried after a 502, 503, 504 or timeout whatever its method. */
                    idempotency?: {
                        header: string;
                    };
                    name: components["schemas"]["ServiceNameValue"];
                    /** @description Attempts of one provider request (default 3; 1 never retries). */
                    retry?: {
                        maxAttempts: number;
                    };
                    version: components["schemas"]["ServiceVersion"];
                };
            };
        };
        responses: {
            /** @description The imported service. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogService"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    listWorkspaceServices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enabled services. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceState"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    applyWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    revision?: components["schemas"]["WorkspaceRevision"];
                    services: {
                        baseUrl?: components["schemas"]["BaseUrl"];
                        name: components["schemas"]["ServiceNameValue"];
                        version: components["schemas"]["ServiceVersion"];
                    }[];
                };
            };
        };
        responses: {
            /** @description The workspace as applied. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceState"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    enableWorkspaceService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    baseUrl?: components["schemas"]["BaseUrl"];
                    version: components["schemas"]["ServiceVersion"];
                };
            };
        };
        responses: {
            /** @description The enabled service. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceService"];
                };
            };
            default: components["responses"]["Error"];
        };
    };
    disableWorkspaceService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                service: components["parameters"]["ServiceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Disabled. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
}
