// Operation analyses kept on disk, one file per catalogue version (the ranker's key: the hashes of
// its operations' texts), so a restarted Engine reads what it analysed before instead of analysing
// every operation again. A file is written by the analysis code it came from: a change to that code
// (./analysis.ts and what it reads with) makes old files unreadable, never wrong. A file that cannot
// be read is ignored and rewritten; the files are a cache, and losing them costs one build.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysedOperation } from './analysis.ts';

/** Files kept; past this the least recently written go (each is one catalogue version's analyses). */
export const ANALYSIS_FILES_KEPT = 64;

const FORMAT = 1;

/** The modules an analysis is computed by: a change to any of them changes every analysis. */
const ANALYSIS_SOURCES = ['analysis.ts', 'structure.ts', 'lexicon.ts', 'text.ts', 'participles.ts'];

let codeStamp: string | null | undefined;

/** A hash of the analysis code; null when its sources cannot be read (nothing is then kept on disk). */
function analysisCode(): string | null {
  if (codeStamp === undefined) {
    try {
      const hash = createHash('sha256').update(String(FORMAT));
      for (const file of ANALYSIS_SOURCES) hash.update(readFileSync(join(import.meta.dirname, file)));
      codeStamp = hash.digest('base64url');
    } catch {
      codeStamp = null;
    }
  }
  return codeStamp;
}

type StoredAnalysis = Omit<AnalysedOperation, 'fields'> & { fields: [string, number][] };

interface AnalysisFile {
  format: number;
  code: string;
  analyses: StoredAnalysis[];
}

export class AnalysisFiles {
  private readonly dir: string;
  private readonly onError: (err: unknown) => void;

  /** `onError` hears of a file that could not be written (the next start analyses again). */
  constructor(dir: string, onError: (err: unknown) => void = () => undefined) {
    this.dir = dir;
    this.onError = onError;
  }

  private fileOf(key: string): string {
    return join(this.dir, `${Buffer.from(key, 'base64').toString('base64url')}.json`);
  }

  /** The analyses kept for `key` by this analysis code, in operation order; undefined when there are none. */
  load(key: string): AnalysedOperation[] | undefined {
    const code = analysisCode();
    if (!code) return undefined;
    let parsed: AnalysisFile;
    try {
      parsed = JSON.parse(readFileSync(this.fileOf(key), 'utf8')) as AnalysisFile;
    } catch {
      return undefined; // none yet, or cut short: analysed again and rewritten
    }
    if (parsed?.format !== FORMAT || parsed.code !== code || !Array.isArray(parsed.analyses)) return undefined;
    return parsed.analyses.map((a) => ({ ...a, fields: new Map(a.fields) }));
  }

  /** Keeps the analyses of `key`; written whole under a temporary name and renamed, so a reader never sees half a file. */
  save(key: string, analyses: readonly AnalysedOperation[]): void {
    const code = analysisCode();
    if (!code) return;
    const file: AnalysisFile = { format: FORMAT, code, analyses: analyses.map((a) => ({ ...a, fields: [...a.fields] })) };
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const target = this.fileOf(key);
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temporary, JSON.stringify(file), { mode: 0o600 });
      renameSync(temporary, target);
      this.prune();
    } catch (err) {
      this.onError(err);
    }
  }

  /** Removes the least recently written files past ANALYSIS_FILES_KEPT, and temporary files left by a crash. */
  private prune(): void {
    const files = readdirSync(this.dir).map((name) => ({ name, at: statSync(join(this.dir, name)).mtimeMs }));
    const stale = files.filter((f) => f.name.endsWith('.tmp') && Date.now() - f.at > 60_000);
    const kept = files.filter((f) => f.name.endsWith('.json')).sort((a, b) => b.at - a.at);
    for (const f of [...stale, ...kept.slice(ANALYSIS_FILES_KEPT)]) unlinkSync(join(this.dir, f.name));
  }
}
