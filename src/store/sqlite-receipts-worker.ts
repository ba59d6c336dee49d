// The receipt writer thread of a file-backed SQLite store (see ./sqlite-receipts.ts): its own
// connection, one transaction per batch, an answer per batch.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ReceiptInserter, type FromWriter, type ReceiptColumns, type ToWriter } from './sqlite-receipts.ts';

const port = parentPort!;
const { file, synchronous } = workerData as { file: string; synchronous: 'FULL' | 'NORMAL' };
const db = new Database(file);
db.pragma('busy_timeout = 5000');
db.pragma(`synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
const inserter = new ReceiptInserter(db);

port.on('message', (message: ToWriter) => {
  if (message.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let answer: FromWriter;
  try {
    inserter.insert(JSON.parse(message.rowsJson) as ReceiptColumns[]);
    answer = { type: 'done', batch: message.batch };
  } catch (err) {
    answer = { type: 'done', batch: message.batch, error: String((err as Error)?.message ?? err) };
  }
  port.postMessage(answer);
});
