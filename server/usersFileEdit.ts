/**
 * Changes to the local users file from the CLI: add a user, set a password.
 * The file is rewritten atomically (temp file + rename) so a crash never
 * leaves half a file, and only SCRAM verifiers are written — never a password.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeVerifier } from '../protocol/scram.js';
import { LocalUsers } from './users.js';

interface UsersJson {
  users: { name: string; scram: string }[];
  [k: string]: unknown;
}

function read(file: string): UsersJson {
  if (!existsSync(file)) return { users: [] };
  LocalUsers.load(file); // refuses a malformed file before we touch it
  return JSON.parse(readFileSync(file, 'utf8')) as UsersJson;
}

function write(file: string, data: UsersJson): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

function checkName(name: string): void {
  if (name.length === 0 || Buffer.byteLength(name) > 63) throw new Error('a user name is 1 to 63 bytes');
}

export function addUser(file: string, name: string, password: string): void {
  checkName(name);
  if (password === '') throw new Error('the password must not be empty');
  const data = read(file);
  if (data.users.some((u) => u.name === name)) throw new Error(`user "${name}" already exists in ${file}`);
  data.users.push({ name, scram: makeVerifier(password) });
  write(file, data);
}

export function setPassword(file: string, name: string, password: string): void {
  if (password === '') throw new Error('the password must not be empty');
  const data = read(file);
  const user = data.users.find((u) => u.name === name);
  if (!user) throw new Error(`user "${name}" does not exist in ${file}`);
  user.scram = makeVerifier(password);
  write(file, data);
}
