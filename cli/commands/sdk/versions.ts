// `<sdk_name>@<version>` → the version's ID, through the Engine's version list.
import type { Session } from '../../lib/engine.ts';
import { CliError, UsageError, shownArgument } from '../../lib/errors.ts';

const REF = /^([a-z][a-z0-9-]{0,62})@([0-9]+\.[0-9]+\.[0-9]+)$/;
const VERSION_ID = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface SdkRef {
  name: string;
  version: string;
  versionId: string;
  operations: string[];
}

export async function resolveSdkRef(s: Session, ref: string): Promise<SdkRef> {
  const match = REF.exec(ref);
  if (!match) throw new UsageError(`${shownArgument(ref)} is not <sdk_name>@<version>`, 'write it like crm@1.0.0 (see `svc-cli sdk list`)');
  const [, name = '', version = ''] = match;
  const { versions } = await s.call(s.api.GET('/v1/sdks/{name}/versions', { params: { path: { name } } }), (f) =>
    f.status === 404 ? 'list SDKs with `svc-cli sdk list`' : undefined,
  );
  const found = versions.find((v) => v.version === version);
  if (!found) {
    throw new CliError(`${name} has no version ${version} (versions: ${versions.map((v) => v.version).join(', ') || 'none'})`, 'pick one of those');
  }
  return { name, version, versionId: found.versionId, operations: found.operations };
}

export const isVersionId = (value: string) => VERSION_ID.test(value);
