// The evaluation's intents: tasks phrased as people phrase them, each with the operation IDs that do
// it. They were split into `dev` (tune on it) and `test` (measure on it, never tune) before any
// ranking code changed; see test/search-eval/README.md.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** `plain`: short everyday requests (GitHub and six imported APIs) written while tuning (README.md): tuned on, like dev. */
export type Split = 'dev' | 'test' | 'plain';
export const SPLITS: Split[] = ['dev', 'test', 'plain'];

export interface Intent {
  query: string;
  /** Every operation ID that does the task; a hit on any of them counts. */
  expected: string[];
}

const dir = import.meta.dirname;

/** The intents of one catalogue and split (an empty list when the split has none for it). */
export function intentsOf(catalogue: string, split: Split): Intent[] {
  const file = join(dir, split, `${catalogue}.json`);
  if (!readdirSync(join(dir, split)).includes(`${catalogue}.json`)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected an array of intents`);
  return parsed.map((item, i) => {
    const { query, expected } = (item ?? {}) as Partial<Intent>;
    if (typeof query !== 'string' || !query.trim()) throw new Error(`${file}[${i}].query: expected a non-empty string`);
    if (!Array.isArray(expected) || !expected.length || !expected.every((e) => typeof e === 'string')) {
      throw new Error(`${file}[${i}].expected: expected a non-empty array of operation IDs`);
    }
    return { query, expected };
  });
}
