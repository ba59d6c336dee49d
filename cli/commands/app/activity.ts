// `svc-cli sdk activity` and `svc-cli mcp activity`: the receipts of one version (what ran, provider
// time, what came back), newest first, a page at a time; `--trace` keeps those of one trace. The two
// differ only in how a version is named.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import type { DefinitionKind } from '../../lib/definition.ts';
import { session, type Session } from '../../lib/engine.ts';
import { UsageError } from '../../lib/errors.ts';
import { printJson, printTable } from '../../lib/output.ts';

const RECEIPT_ID = /^rcp_[0-9A-HJKMNP-TV-Z]{26}$/;
const TRACE_ID = /^[0-9a-f]{32}$/;

/** The version a command's <ref> names. */
export interface VersionRef {
  name: string;
  version: string;
  versionId: string;
}

export function activityCommand(
  kind: DefinitionKind,
  options: { ref: string; refHelp: string; resolve: (s: Session, ref: string) => Promise<VersionRef>; examples: [string, string][] },
) {
  return defineCommand({
    command: 'activity <ref>',
    describe: `Show the activity receipts of ${kind.kind === 'sdk' ? 'an SDK' : 'an MCP server'} version, newest first`,
    builder: (y) => {
      let b = jsonOption(
        y
          .positional('ref', { type: 'string', demandOption: true, describe: options.refHelp })
          .option('limit', { type: 'number', default: 50, requiresArg: true, describe: 'how many receipts (1-1000)' })
          .option('before', { type: 'string', requiresArg: true, describe: 'only receipts older than this receipt ID (the next page)' })
          .option('trace', { type: 'string', requiresArg: true, describe: 'only the receipts of calls in this trace (its W3C trace ID, 32 hex digits)' }),
      );
      for (const [example, what] of options.examples) b = b.example(example, what);
      return b
        .example(`$0 ${kind.kind} activity ${options.ref} --before rcp_01JD…`, 'the page of receipts older than that one')
        .example(`$0 ${kind.kind} activity ${options.ref} --trace 4bf92f3577b34da6a3ce929d0e0e4736`, 'the calls of one trace (from a trace viewer or a traceparent)');
    },
    handler: async (argv) => {
      if (!Number.isInteger(argv.limit) || argv.limit < 1 || argv.limit > 1000) throw new UsageError('--limit must be an integer from 1 to 1000', 'e.g. --limit 20');
      if (argv.before !== undefined && !RECEIPT_ID.test(argv.before)) throw new UsageError('--before must be a receipt ID (rcp_ and 26 characters)', 'take it from a receipt listed earlier, or the hint under the table');
      // Viewers show trace IDs in either case; the W3C form is lowercase.
      const trace = argv.trace?.toLowerCase();
      if (trace !== undefined && !TRACE_ID.test(trace)) throw new UsageError('--trace must be a W3C trace ID (32 hex digits)', 'take it from a receipt (--json shows traceId), a trace viewer or a traceparent header');
      const s = session();
      const ref = await options.resolve(s, argv.ref);
      const query = { limit: argv.limit, ...(argv.before !== undefined ? { before: argv.before } : {}), ...(trace !== undefined ? { trace_id: trace } : {}) };
      const { receipts, next } = await s.call(s.api.GET('/v1/versions/{version_id}/receipts', { params: { path: { version_id: ref.versionId }, query } }));
      if (argv.json) return printJson({ name: ref.name, version: ref.version, versionId: ref.versionId, receipts, next });
      // The trace column only when a receipt on the page has one (the Engine traced its call).
      const traced = receipts.some((r) => r.traceId !== undefined);
      printTable(
        ['STARTED', 'OPERATION', 'SURFACE', 'STATUS', 'OK', 'PROVIDER MS', 'PAGES', 'BYTES', 'ERROR', ...(traced ? ['TRACE'] : [])],
        receipts.map((r) => [r.startedAt, r.operation, r.surface, r.status, r.ok ? 'yes' : 'no', Math.round(r.providerDurationMs), r.pages, r.bytes, r.errorCode, ...(traced ? [r.traceId] : [])]),
        trace === undefined
          ? `No activity for ${ref.name}@${ref.version} ${argv.before === undefined ? 'yet' : `before ${argv.before}`}.`
          : // A trace is searched a stretch of receipts at a time (GET …/receipts?trace_id=): none here may still mean some further back.
            `No receipts of ${ref.name}@${ref.version} in trace ${trace} ${next ? 'in this stretch of its receipts; the hint below searches older ones' : argv.before === undefined ? 'yet' : `before ${argv.before}`}.`,
      );
      // The version found, not the ref given: `mcp activity <name>` follows the active version, which may change between pages.
      if (next) process.stderr.write(`Older receipts: svc-cli ${kind.kind} activity ${ref.name}@${ref.version}${trace === undefined ? '' : ` --trace ${trace}`} --before ${next}\n`);
    },
  });
}
