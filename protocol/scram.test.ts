import { createRequire } from 'node:module';
import pg from 'pg';
import { startPostgres } from '../tests/support/realPostgres.js';
import { makeVerifier, parseVerifier, passwordMatches, ScramExchange } from './scram.js';

// node-postgres's own SCRAM client: an implementation we did not write.
const require = createRequire(import.meta.url);
const sasl = require('pg/lib/crypto/sasl.js') as {
  startSession(mechanisms: string[]): { message: string; clientNonce: string; response: string; mechanism: string };
  continueSession(session: object, password: string, serverData: string): Promise<void>;
  finalizeSession(session: object, serverData: string): void;
};

async function login(verifierText: string, password: string): Promise<boolean> {
  const verifier = parseVerifier(verifierText);
  if (!verifier) throw new Error('unparseable verifier');
  const client = sasl.startSession(['SCRAM-SHA-256']) as { response: string };
  const exchange = new ScramExchange(verifier);
  const serverFirst = exchange.start(client.response);
  await sasl.continueSession(client, password, serverFirst);
  const serverFinal = exchange.finish(client.response);
  if (serverFinal === null) return false;
  sasl.finalizeSession(client, serverFinal); // throws if the server signature is wrong
  return true;
}

describe('SCRAM-SHA-256', () => {
  it('accepts the right password and refuses a wrong one with our verifiers', async () => {
    const v = makeVerifier('s3cret');
    expect(await login(v, 's3cret')).toBe(true);
    expect(await login(v, 's3cret!')).toBe(false);
  });

  it('uses verifiers made by PostgreSQL itself (pg_authid format)', async () => {
    const server = await startPostgres();
    try {
      const c = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
      await c.connect();
      await c.query("SET password_encryption = 'scram-sha-256'");
      await c.query("CREATE ROLE scram_probe LOGIN PASSWORD 'pässwörd'");
      const { rows } = await c.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'scram_probe'");
      await c.end();
      const fromPostgres = rows[0].rolpassword as string;
      expect(fromPostgres).toMatch(/^SCRAM-SHA-256\$4096:/);
      expect(await login(fromPostgres, 'pässwörd')).toBe(true);
      expect(await login(fromPostgres, 'passwort')).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('refuses a client-final message whose nonce differs from the exchange', () => {
    const exchange = new ScramExchange(parseVerifier(makeVerifier('x'))!);
    exchange.start('n,,n=,r=abc');
    expect(() => exchange.finish('c=biws,r=other,p=AAAA')).toThrow(/malformed SCRAM/);
  });
});

describe('passwordMatches (cleartext password against a verifier)', () => {
  it('agrees with PostgreSQL-format verifiers made here', async () => {
    const v = parseVerifier(makeVerifier('correct horse'))!;
    expect(await passwordMatches(v, 'correct horse')).toBe(true);
    expect(await passwordMatches(v, 'correct horse ')).toBe(false);
  });
});
