/**
 * The server secret: 32 random bytes kept in a file (hex), created on first
 * start. Whatever derives from it (the mock SCRAM salt of a user that does
 * not exist) stays the same across restarts and across instances that share
 * the file, as PostgreSQL's mock authentication nonce does; a stranger cannot
 * tell a real account by watching its salt stay put.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const HEX = /^[0-9a-f]{64}$/;

export function loadServerSecret(path: string): Buffer {
  try {
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    // Already there (another instance may have just written it): read what it holds.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`cannot create server secret file ${path}: ${(e as Error).message}`);
  }
  const text = readFileSync(path, 'utf8').trim();
  if (!HEX.test(text)) throw new Error(`server secret file ${path} must hold 64 hex digits`);
  return Buffer.from(text, 'hex');
}
