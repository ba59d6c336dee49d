// `svc-cli sdk activity <sdk>@<version>`: the receipts of a version (what ran, provider time,
// what came back), newest first.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { UsageError } from '../../lib/errors.ts';
import { printJson, printTable } from '../../lib/output.ts';
import { resolveSdkRef } from './versions.ts';

const RECEIPT_ID = /^rcp_[0-9A-HJKMNP-TV-Z]{26}$/;

export const sdkActivity = defineCommand({
  command: 'activity <ref>',
  describe: 'Show the activity receipts of an SDK version, newest first',
  builder: (y) =>
    jsonOption(
      y
        .positional('ref', { type: 'string', demandOption: true, describe: '<sdk_name>@<version>' })
        .option('limit', { type: 'number', default: 50, requiresArg: true, describe: 'how many receipts (1-1000)' })
        .option('before', { type: 'string', requiresArg: true, describe: 'only receipts older than this receipt ID (the next page)' }),
    )
      .example('$0 sdk activity crm@1.0.0', 'what ran, how long the provider took, what came back')
      .example('$0 sdk activity crm@1.0.0 --json --limit 5', 'the last five receipts as JSON')
      .example('$0 sdk activity crm@1.0.0 --before rcp_01JD…', 'the page of receipts older than that one'),
  handler: async (argv) => {
    if (!Number.isInteger(argv.limit) || argv.limit < 1 || argv.limit > 1000) throw new UsageError('--limit must be an integer from 1 to 1000', 'e.g. --limit 20');
    if (argv.before !== undefined && !RECEIPT_ID.test(argv.before)) throw new UsageError('--before must be a receipt ID (rcp_ and 26 characters)', 'take it from a receipt listed earlier, or the hint under the table');
    const s = session();
    const ref = await resolveSdkRef(s, argv.ref);
    const query = { limit: argv.limit, ...(argv.before !== undefined ? { before: argv.before } : {}) };
    const { receipts, next } = await s.call(s.api.GET('/v1/versions/{version_id}/receipts', { params: { path: { version_id: ref.versionId }, query } }));
    if (argv.json) return printJson({ name: ref.name, version: ref.version, versionId: ref.versionId, receipts, next });
    printTable(
      ['STARTED', 'OPERATION', 'SURFACE', 'STATUS', 'OK', 'PROVIDER MS', 'PAGES', 'BYTES', 'ERROR'],
      receipts.map((r) => [r.startedAt, r.operation, r.surface, r.status, r.ok ? 'yes' : 'no', Math.round(r.providerDurationMs), r.pages, r.bytes, r.errorCode]),
      `No activity for ${ref.name}@${ref.version} ${argv.before === undefined ? 'yet' : `before ${argv.before}`}.`,
    );
    if (next) process.stderr.write(`Older receipts: svc-cli sdk activity ${argv.ref} --before ${next}\n`);
  },
});
