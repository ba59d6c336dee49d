// Package builder: renders the typed TypeScript and Python packages and the README of an SDK
// version from the operation index with the Handlebars templates in templates/sdk/, when a
// download asks for them (`svc-cli sdk apply --download` publishes, then downloads). Building at
// every publish would make publishing slow and spend CPU on versions nobody downloads.
// A build is a pure function of the immutable version, the operation index and the templates:
// the same inputs give byte-identical files (sorted entries, fixed timestamps, no clock or
// randomness), so packages stay downloadable later for any version; built packages are cached.
import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog/index.ts';
import { ENGINE_STATUS } from '../envelope/index.ts';
import type { AppVersionRow } from '../store/index.ts';
import type { UnifiedDefinition } from '../unified/definitions.ts';
import { tarGz, zip } from './archive.ts';
import { buildModel, type SdkModel, type SdkOperation } from './model.ts';
import { pythonPackage } from './python.ts';
import { createEnvironment, loadTemplates, pyLiteral, type Render } from './templates.ts';
import { typescriptPackage } from './typescript.ts';

export const PACKAGE_KINDS = ['typescript', 'python-wheel', 'python-sdist', 'readme'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

export interface BuiltPackage {
  kind: PackageKind;
  filename: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

export type BuiltPackages = Record<PackageKind, BuiltPackage>;

/** What each error code means, for the README (statuses come from the envelope module). */
const ERROR_MEANINGS: Record<string, string> = {
  ENGINE_INVALID_INPUT: 'The input does not match the operation’s schema (details.errors name each instancePath), or the request is malformed.',
  ENGINE_PAGINATION_INVALID: 'The pagination bound is missing, not a positive integer, not below the Engine limit, or the operation takes none.',
  ENGINE_UNAUTHENTICATED: 'The token is missing, malformed, expired, revoked, or not valid for this version.',
  ENGINE_FORBIDDEN_OPERATION: 'The operation is not selected in this version (or outside the token’s allowlist).',
  ENGINE_EGRESS_REFUSED: 'The service’s address is one the Engine’s egress policy refuses (metadata, or a private range SVC_EGRESS_ALLOW does not list); nothing was sent.',
  ENGINE_UNKNOWN_OPERATION: 'No such operation in the services of this version.',
  ENGINE_NOT_FOUND: 'The version or resource does not exist.',
  ENGINE_CONFLICT: 'The service is not enabled at this version in the workspace.',
  ENGINE_CREDENTIAL_MISSING: 'No secret is stored for the service (`svc-cli secret set <service> --value-stdin`).',
  ENGINE_CREDENTIAL_REFRESH_FAILED: 'The end user’s OAuth connection needs re-authorisation (`svc-cli connection create`).',
  ENGINE_IDEMPOTENCY_CONFLICT: 'An idempotency key was reused with different parameters, or its first call is still running (retryable).',
  ENGINE_INPUT_TOO_LARGE: 'The input exceeds the Engine’s request size limit.',
  ENGINE_RESULT_TOO_LARGE: 'The provider’s result exceeds the Engine’s result size limit.',
  ENGINE_PAGINATION_LIMIT: 'The provider had more pages than the Engine limit; narrow the query or pass a smaller bound.',
  ENGINE_RATE_LIMITED: 'Too many calls; retry later.',
  ENGINE_CANCELLED: 'The call was cancelled before its provider request was sent; nothing was sent.',
  ENGINE_INTERNAL: 'The Engine failed unexpectedly; the failure was logged.',
  PROVIDER_UNREACHABLE: 'The provider could not be reached; nothing was sent.',
  ENGINE_OUTCOME_UNKNOWN: 'The connection to the provider failed mid-request, or the call was cancelled while its request was in flight; the provider may have acted.',
  ENGINE_UNAVAILABLE: 'The Engine replica is shutting down and did not run the call; send it again.',
  PROVIDER_TIMEOUT: 'The provider did not answer in time; it may have acted unless error.details.provider_execution is not_started.',
};

/** `{ "a": 1 }` on one line. */
const inlineJson = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');

function readmeContext(model: SdkModel) {
  const docOp = (op: SdkOperation) => ({
    ...op,
    tsExample: inlineJson(op.example),
    pyExample: pyLiteral(op.example),
    exampleJson: JSON.stringify(op.example),
    // REST takes a Unified call's parameters beside `operation`, a physical call's input under `input`.
    restBody: JSON.stringify(op.unifiedSteps ? { operation: op.id, ...op.example } : { operation: op.id, input: op.example, ...(op.pagination?.callerBound ? { pagination: { maxPages: 2 } } : {}) }),
  });
  const operations = model.operations.map(docOp);
  const errorCodes = [
    ...Object.entries(ENGINE_STATUS).map(([code, status]) => ({ code, status: String(status), meaning: ERROR_MEANINGS[code] ?? '' })),
    { code: 'PROVIDER_ERROR', status: 'the provider’s', meaning: 'The provider answered with an error status; details.providerBody holds its answer.' },
    ...(model.operations.some((o) => o.unifiedSteps)
      ? [
          { code: 'UNIFIED_STEP_FAILED', status: 'the step’s', meaning: 'A Unified step failed or was refused; data.steps tells what each target did and whether it reached a provider.' },
          { code: 'UNIFIED_OUTPUT_INVALID', status: '500', meaning: 'The steps succeeded but their mapped output does not match the operation’s output schema.' },
        ]
      : []),
    {
      code: 'TRANSPORT_UNAVAILABLE',
      status: '503 / 504',
      meaning: 'The package could not complete the gRPC call (Engine unreachable, deadline passed, call cancelled); details.grpc_status names the gRPC status.',
    },
  ];
  // Selectors go beside a physical operation's input, inside a Unified call's parameters keyed by target.
  const physical = operations.find((o) => !o.unifiedSteps);
  const unified = physical ? undefined : operations[0];
  const unifiedWithSelectors = unified && { ...unified.example, selectors: { [(unified.example.targets as string[])[0]!]: { endUserRef: 'user-42' } } };
  const selectorsExample = physical
    ? { ts: `await ${physical.tsPath}(${physical.tsExample}, { selectors: { endUserRef: 'user-42' } });`, py: `${physical.pyPath}(${physical.pyExample}, selectors={"end_user_ref": "user-42"})` }
    : unified && { ts: `await ${unified.tsPath}(${inlineJson(unifiedWithSelectors)});`, py: `${unified.pyPath}(${pyLiteral(unifiedWithSelectors)})` };
  return {
    ...model,
    operations,
    firstOp: operations[0],
    selectorsExample,
    firstService: model.services[0]?.className ?? '',
    paginated: operations.filter((o) => o.pagination),
    oauthServices: model.services.filter((s) => s.oauth),
    errorCodes,
  };
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export class Packages {
  private readonly catalog: Catalog;
  private readonly readme: Render;
  private readonly typescript: Record<string, Render>;
  private readonly python: Record<string, Render>;
  private readonly cache = new Map<string, Promise<BuiltPackages>>();
  private readonly cacheSize: number;

  private readonly unified: readonly UnifiedDefinition[];

  constructor(deps: { catalog: Catalog; unified?: readonly UnifiedDefinition[]; cacheSize?: number }) {
    this.catalog = deps.catalog;
    this.unified = deps.unified ?? [];
    this.cacheSize = deps.cacheSize ?? 16;
    const hb = createEnvironment();
    this.readme = loadTemplates(hb, '.')['README.md']!;
    this.typescript = loadTemplates(hb, 'typescript');
    this.python = loadTemplates(hb, 'python');
  }

  model(version: AppVersionRow): SdkModel {
    return buildModel(version, (service, v) => {
      const index = this.catalog.get(service, v);
      if (!index) throw new Error(`${version.name}@${version.version} uses ${service}@${v}, which is not in the catalog`);
      return index;
    }, this.unified);
  }

  /** Builds every package of a version (uncached). */
  async build(version: AppVersionRow): Promise<BuiltPackages> {
    // A version published on another replica may use a service imported there.
    for (const pair of version.services) {
      const [service = '', v = ''] = pair.split('=');
      await this.catalog.ensure(service, v);
    }
    const model = this.model(version);
    const readme = this.readme(readmeContext(model));
    const [npm, py] = await Promise.all([typescriptPackage(model, this.typescript, readme), Promise.resolve(pythonPackage(model, this.python, readme))]);
    const [tgz, sdist, wheel] = await Promise.all([tarGz(npm), tarGz(py.sdist), zip(py.wheel)]);
    const pkg = (kind: PackageKind, filename: string, contentType: string, bytes: Buffer): BuiltPackage => ({ kind, filename, contentType, bytes, sha256: digest(bytes) });
    return {
      typescript: pkg('typescript', model.npmFile, 'application/gzip', tgz),
      'python-wheel': pkg('python-wheel', model.wheelFile, 'application/zip', wheel),
      'python-sdist': pkg('python-sdist', model.sdistFile, 'application/gzip', sdist),
      readme: pkg('readme', model.readmeFile, 'text/markdown; charset=utf-8', Buffer.from(readme)),
    };
  }

  /** Builds (or reuses) the packages of a version; concurrent requests share one build. */
  packages(version: AppVersionRow): Promise<BuiltPackages> {
    let built = this.cache.get(version.versionId);
    if (built) {
      this.cache.delete(version.versionId);
      this.cache.set(version.versionId, built);
      return built;
    }
    built = this.build(version);
    this.cache.set(version.versionId, built);
    built.catch(() => this.cache.delete(version.versionId));
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return built;
  }


  async get(version: AppVersionRow, kind: PackageKind): Promise<BuiltPackage> {
    return (await this.packages(version))[kind];
  }
}
