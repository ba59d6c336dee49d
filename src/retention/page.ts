// session.page: one page of a stored array, packed byte-exactly into the output budget.
import { RetentionError, ROW_TOO_LARGE_GUIDANCE, checkBudget, clip, invalidInput, isRecord, utf8 } from './errors.ts';
import { pointerTokens, resolveTokens } from './pointer.ts';

export interface Page {
  items: unknown[];
  offset: number;
  total: number;
  returned: number;
  nextOffset: number | null;
  complete: boolean;
}

export interface PageOptions {
  path?: string;
  fields?: string[];
  offset?: number;
}

const OPTION_KEYS = new Set(['path', 'fields', 'offset']);
/** `{"result":{"items":[` — the execute tool's model-facing object when the script returns the page. */
const HEAD_BYTES = utf8('{"result":{"items":[');

/** Bytes of `JSON.stringify({ result: page })` for a page of `returned` rows whose JSON takes `rowBytes`. */
function pageBytes(offset: number, total: number, returned: number, rowBytes: number): number {
  const end = offset + returned;
  const tail = `],"offset":${offset},"total":${total},"returned":${returned},"nextOffset":${end < total ? end : 'null'},"complete":${end >= total}}}`;
  return HEAD_BYTES + rowBytes + Math.max(returned - 1, 0) + tail.length; // the tail is ASCII
}

/** Most fields one page may select: each is looked up in every row of the page. Whole rows: omit fields. */
export const MAX_PAGE_FIELDS = 100;

function checkFields(fields: unknown, rows: readonly unknown[]): string[] | undefined {
  if (fields === undefined) return undefined;
  if (!Array.isArray(fields) || fields.length === 0) throw invalidInput('session.page fields must be a non-empty array of field names (omit it for whole rows)');
  if (fields.length > MAX_PAGE_FIELDS) {
    throw invalidInput(`session.page fields lists ${fields.length} names; at most ${MAX_PAGE_FIELDS} (omit fields for whole rows)`, { limit: MAX_PAGE_FIELDS });
  }
  const seen = new Set<string>();
  for (const field of fields) {
    // '' is a key like any other (discovery lists it when rows have it).
    if (typeof field !== 'string') throw invalidInput('session.page fields must be strings (literal immediate keys, no dotted paths)');
    if (seen.has(field)) throw invalidInput(`session.page field '${clip(field)}' is listed twice`, { field: clip(field) });
    seen.add(field);
  }
  // Each row costs the smaller of its key count and the fields still missing: linear in the collection.
  const missing = new Set(seen);
  for (let i = 0; i < rows.length && missing.size; i++) {
    const row = rows[i];
    if (!isRecord(row)) continue;
    const keys = Object.keys(row);
    if (keys.length < missing.size) for (const key of keys) missing.delete(key);
    else for (const field of missing) if (Object.hasOwn(row, field)) missing.delete(field);
  }
  if (rows.length && missing.size) {
    const field = [...missing][0]!;
    throw invalidInput(`session.page field '${clip(field)}' is absent from every row of the collection (fields are literal immediate keys)`, { field: clip(field) });
  }
  return fields as string[];
}

/** A row with only the selected fields it has (sparse fields stay absent; a non-object row has none). */
function project(row: unknown, fields: readonly string[]): Record<string, unknown> {
  if (!isRecord(row)) return {};
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(row, f)).map((f) => [f, row[f]]));
}

/** session.page: page of the array at `path` in `value`, packed so that `JSON.stringify({ result: page })` fits `outputBudgetBytes` in UTF-8 and one more row would not. */
export function pageOf(value: unknown, options: PageOptions, outputBudgetBytes: number): Page {
  checkBudget(outputBudgetBytes);
  const opts: unknown = options ?? {};
  if (!isRecord(opts)) throw invalidInput('session.page options must be an object { path?, fields?, offset? }');
  const unknown = Object.keys(opts).filter((k) => !OPTION_KEYS.has(k));
  if (unknown.length) throw invalidInput(`session.page does not accept option '${clip(unknown[0]!)}' (allowed: path, fields, offset)`);
  // Defaults apply only to an absent option: null (a finished loop's nextOffset, or NaN after JSON) is refused.
  const path = Object.hasOwn(opts, 'path') ? opts.path : '';
  const target = resolveTokens(value, pointerTokens(path, 'session.page path'));
  if (!target.found) throw invalidInput(`session.page path '${clip(path as string)}' does not exist in the stored result`, { path: clip(path as string) });
  if (!Array.isArray(target.value)) {
    const kind = target.value === null ? 'null' : typeof target.value === 'object' ? 'object' : typeof target.value;
    throw invalidInput(`session.page path '${clip(path as string)}' is ${kind === 'object' ? 'an' : 'a'} ${kind}, not an array`, { path: clip(path as string) });
  }
  const rows: readonly unknown[] = target.value;
  const total = rows.length;
  const offset = Object.hasOwn(opts, 'offset') ? opts.offset : 0;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0 || offset > total) {
    const finished = offset === null ? ' (a null nextOffset means every row was read: stop paging)' : '';
    throw invalidInput(`session.page offset must be an integer from 0 to ${total} (the collection's row count)${finished}`, { total });
  }
  const fields = checkFields(opts.fields, rows);

  const items: unknown[] = [];
  let rowBytes = 0;
  while (offset + items.length < total) {
    const row = rows[offset + items.length];
    const item = fields ? project(row, fields) : row;
    const bytes = utf8(JSON.stringify(item) ?? 'null');
    if (pageBytes(offset, total, items.length + 1, rowBytes + bytes) > outputBudgetBytes) {
      if (items.length === 0) {
        throw new RetentionError(
          'MCP_RESULT_ROW_TOO_LARGE',
          `Row ${offset} of '${clip(path as string)}' takes ${bytes} bytes${fields ? ' with the selected fields' : ''} and cannot fit a page within the output budget of ${outputBudgetBytes} bytes. ${ROW_TOO_LARGE_GUIDANCE}`,
          { path: clip(path as string), row: offset, row_bytes: bytes, output_budget_bytes: outputBudgetBytes, guidance: ROW_TOO_LARGE_GUIDANCE },
        );
      }
      break;
    }
    items.push(item);
    rowBytes += bytes;
  }
  const end = offset + items.length;
  const page: Page = { items, offset, total, returned: items.length, nextOffset: end < total ? end : null, complete: end >= total };
  const actual = utf8(JSON.stringify({ result: page }));
  if (actual !== pageBytes(offset, total, items.length, rowBytes) || actual > outputBudgetBytes) {
    throw new Error(`session.page accounting mismatch: ${actual} bytes against a budget of ${outputBudgetBytes}`);
  }
  return page;
}
