// `svc-cli bucket list`: buckets and which services have a secret in each (values never shown).
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { printJson, printTable } from '../../lib/output.ts';

const bucketList = defineCommand({
  command: 'list',
  describe: 'List buckets and the services that have a secret in each',
  builder: (y) => jsonOption(y).example('$0 bucket list', 'show buckets').example('$0 bucket list --json', 'as JSON'),
  handler: async (argv) => {
    const s = session();
    const { buckets } = await s.call(s.api.GET('/v1/buckets'));
    if (argv.json) return printJson({ buckets });
    const rows = buckets.flatMap((b) => (b.secrets.length ? b.secrets.map((x) => [b.name, x.service, x.origin ?? '(unbound)', x.updatedAt]) : [[b.name, '', '', '']]));
    printTable(['BUCKET', 'SECRET FOR', 'SENT ONLY TO', 'UPDATED'], rows, 'No buckets.');
  },
});

export const bucket = defineGroup('bucket', 'Buckets that hold secrets and OAuth connections', [bucketList], [['$0 bucket list', 'list buckets']]);
