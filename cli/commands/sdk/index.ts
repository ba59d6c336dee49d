// `svc-cli sdk …`: typed SDK apps — define, validate, plan, publish, call, and see activity.
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { SDK } from '../../lib/definition.ts';
import { session } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { printJson, printTable } from '../../lib/output.ts';
import { applyCommand, initCommand, planCommand, validateCommand } from '../app/definition.ts';
import { sdkActivity } from './activity.ts';
import { downloadPackages } from './download.ts';
import { sdkInvoke } from './invoke.ts';
import { sdkToken } from './token.ts';

const sdkApply = applyCommand(SDK, {
  builder: (y) =>
    y
      .option('download', { type: 'boolean', describe: 'also download the typed packages (TypeScript, Python)' })
      .option('dir', { type: 'string', requiresArg: true, implies: 'download', describe: 'where --download writes the packages' }),
  after: (argv: { download?: boolean | undefined; dir?: string | undefined }, result, s, json) =>
    argv.download ? downloadPackages(s, result, argv.dir ?? '.', json) : Promise.resolve(undefined),
  extra: (r, url) => ({ endpoint: `POST ${url}/v1/apps/${r.versionId}/executions` }),
  examples: [
    ['$0 sdk apply', 'publish ./svc.sdk.json; the first publish prints the execution token once'],
    ['$0 sdk apply --json', 'print {name, version, versionId, published, token?}'],
    ['$0 sdk apply --download --dir ./packages', 'also write the TypeScript and Python packages and the README'],
  ],
});

const sdkList = defineCommand({
  command: 'list',
  describe: 'List SDK apps with their latest version',
  builder: (y) => jsonOption(y).example('$0 sdk list', 'SDK apps and their latest version'),
  handler: async (argv) => {
    const s = session();
    const { sdks } = await s.call(s.api.GET('/v1/sdks'));
    if (argv.json) return printJson({ sdks });
    printTable(
      ['NAME', 'VERSION', 'VERSION ID', 'SERVICES', 'OPERATIONS', 'CREATED'],
      sdks.map((v) => [v.name, v.version, v.versionId, v.services.join(' '), v.operations.length, v.createdAt]),
      'No SDK apps yet; create one with `svc-cli sdk init`.',
    );
  },
});

export const sdk = defineGroup(
  'sdk',
  'Define, publish and call SDK apps (typed sets of approved operations)',
  [initCommand(SDK), validateCommand(SDK), planCommand(SDK), sdkApply, sdkList, sdkInvoke, sdkActivity, sdkToken],
  [
    ["$0 sdk init crm --service 'demo-crm=v1' --operation 'demo-crm=contacts/*'", 'define an SDK'],
    ['$0 sdk plan && $0 sdk apply', 'preview and publish it'],
  ],
);
