// Byte-for-byte reproducible archives: entries sorted by path, fixed timestamps, modes and owners,
// and compression by fflate (pure JavaScript, so the bytes do not depend on the platform's zlib).
import type { Zippable } from 'fflate';

// Loaded on the first build, not at Engine start-up.
const fflate = () => import('fflate');

export interface ArchiveFile {
  path: string;
  content: Buffer;
}

/** npm's own fixed timestamp for packed files. */
const TAR_MTIME = new Date('1985-10-26T08:15:00.000Z');
/** The earliest time a zip entry can carry, built from local fields because zip stores local time. */
const ZIP_MTIME = new Date(1980, 0, 1, 0, 0, 0);

const byPath = (a: ArchiveFile, b: ArchiveFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** A gzip-compressed ustar archive (npm tarballs and Python sdists). */
export async function tarGz(files: ArchiveFile[]): Promise<Buffer> {
  const [{ pack }, { gzipSync }] = await Promise.all([import('tar-stream'), fflate()]);
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    tar.on('end', () => resolve());
    tar.on('error', reject);
  });
  for (const file of [...files].sort(byPath)) {
    tar.entry({ name: file.path, size: file.content.length, mode: 0o644, mtime: TAR_MTIME, uid: 0, gid: 0, uname: '', gname: '', type: 'file' }, file.content);
  }
  tar.finalize();
  await ended;
  return Buffer.from(gzipSync(Buffer.concat(chunks), { level: 9, mtime: 0 }));
}

/** A deflate zip archive (Python wheels), regular files with mode 0644. */
export async function zip(files: ArchiveFile[]): Promise<Buffer> {
  const { zipSync } = await fflate();
  const entries: Zippable = {};
  for (const file of [...files].sort(byPath)) {
    entries[file.path] = [new Uint8Array(file.content), { level: 9, mtime: ZIP_MTIME, os: 3, attrs: (0o100644 << 16) >>> 0 }];
  }
  return Buffer.from(zipSync(entries));
}
