/**
 * The local users file: PostgreSQL-format SCRAM-SHA-256 verifiers (as
 * pg_authid keeps them), so local logins use SCRAM and no password crosses
 * the wire. Roles are not kept here: they come from the Ranger role store.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseVerifier, type ScramVerifier } from '../protocol/scram.js';

const UsersFileSchema = z.object({
  users: z.array(
    z.object({
      name: z.string().min(1).max(63),
      scram: z.string().refine((s) => parseVerifier(s) !== null, 'not a SCRAM-SHA-256 verifier'),
    }),
  ),
});

export interface LocalUser {
  name: string;
  verifier: ScramVerifier;
}

export class LocalUsers {
  private constructor(private readonly byName: Map<string, LocalUser>) {}

  static load(path: string): LocalUsers {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new Error(`cannot read users file ${path}: ${(e as Error).message}`);
    }
    const parsed = UsersFileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`invalid users file ${path}: ${parsed.error.message}`);
    const map = new Map<string, LocalUser>();
    for (const u of parsed.data.users) map.set(u.name, { name: u.name, verifier: parseVerifier(u.scram)! });
    return new LocalUsers(map);
  }

  get(name: string): LocalUser | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
