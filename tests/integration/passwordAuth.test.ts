/**
 * Cleartext password authentication (localAuth: password), the exchange the
 * Keycloak login will use: node-postgres and psql answer
 * AuthenticationCleartextPassword; wrong passwords and unknown users get the
 * same 28P01.
 */
import pg from 'pg';
import { run } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { RawConn } from '../support/wire.js';

let gateway: InProcessGateway;

beforeAll(async () => {
  gateway = await startInProcess(() => ({ localAuth: 'password' }));
}, 60000);

afterAll(async () => {
  await gateway?.stop();
});

const connect = (user: string, password: string) =>
  new pg.Client({ host: '127.0.0.1', port: gateway.server.port, user, password, database: 'demo' });

describe('cleartext password authentication', () => {
  it('asks for the cleartext password (AuthenticationCleartextPassword, code 3)', async () => {
    const c = await RawConn.connect('127.0.0.1', gateway.server.port);
    try {
      const seen = await c.startup('carol', 'demo', 'carol');
      const authCodes = seen.filter((m) => m.type === 'R').map((m) => m.body.readInt32BE(0));
      expect(authCodes).toEqual([3, 0]);
    } finally {
      c.close();
    }
  });

  it('node-postgres logs in and reads the demo rows', async () => {
    const c = connect('carol', 'carol');
    await c.connect();
    try {
      expect((await c.query('SELECT id, amount FROM sales.orders ORDER BY id')).rows).toEqual([
        { id: 1, amount: '100.00' },
        { id: 2, amount: '250.50' },
      ]);
    } finally {
      await c.end();
    }
  });

  it('wrong password and unknown user are refused alike with 28P01', async () => {
    for (const [user, password] of [['carol', 'carol!'], ['mallory', 'mallory']]) {
      const c = connect(user!, password!);
      await expect(c.connect()).rejects.toMatchObject({ code: '28P01', message: `password authentication failed for user "${user}"` });
      await c.end().catch(() => undefined);
    }
  });

  it('psql logs in with the cleartext exchange', async () => {
    const r = await run('psql', [`host=127.0.0.1 port=${gateway.server.port} dbname=demo user=erin`, '-Atc', 'SELECT region FROM sales.orders WHERE id = 1'], {
      env: { ...process.env, PGPASSWORD: 'erin' },
      timeoutMs: 20000,
    });
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toBe('EU\n');
  });
});
