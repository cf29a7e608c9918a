/**
 * A worker thread of server/statementParser.ts: parses one query message
 * with libpg-query and holds it to the tree limits, off the event loop.
 * Answers { id, statements } or { id, error } with the SqlError's fields.
 */
import { parentPort } from 'node:worker_threads';
import { SqlError } from '../sql/errors.js';
import type { TreeLimits } from '../sql/limits.js';
import { loadParser, parseStatements } from '../sql/parse.js';

export interface ParseJob {
  id: number;
  text: string;
  limits: TreeLimits;
}

export type ParseAnswer =
  | { id: number; statements: ReturnType<typeof parseStatements> }
  | { id: number; error: { code: string; message: string; position?: number; hint?: string; internal?: string } };

const port = parentPort!;
await loadParser();
port.on('message', (job: ParseJob) => {
  let answer: ParseAnswer;
  try {
    answer = { id: job.id, statements: parseStatements(job.text, job.limits) };
  } catch (e) {
    answer =
      e instanceof SqlError
        ? { id: job.id, error: { code: e.code, message: e.message, position: e.position, hint: e.hint, internal: e.internal } }
        : { id: job.id, error: { code: 'XX000', message: 'internal error while parsing', internal: String((e as Error)?.stack ?? e) } };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
