/**
 * Connection limits: a client that never logs in is dropped after the
 * authentication timeout, the session limit answers 53300 as PostgreSQL does,
 * and neither disturbs a session already working. A server-wide
 * statement_timeout (config `settings`, as postgresql.conf) applies to every
 * session unless the startup options or SET say otherwise.
 */
import net from 'node:net';
import pg from 'pg';
import { LONG_QUERY } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let gateway: InProcessGateway;

beforeAll(async () => {
  gateway = await startInProcess(() => ({ authTimeoutMs: 300, maxConnections: 2, reservedConnections: 0, settings: { statement_timeout: '1500ms' } }));
}, 60000);

afterAll(async () => {
  await gateway?.stop();
});

const connect = async (user = 'alice', options?: string) => {
  const c = new pg.Client({ host: '127.0.0.1', port: gateway.server.port, user, password: user, database: 'demo', ...(options ? { options } : {}) });
  await c.connect();
  return c;
};

describe('connection limits', () => {
  it('drops a connection that sends nothing once the authentication timeout passes', async () => {
    const working = await connect();
    const idle = net.connect(gateway.server.port, '127.0.0.1');
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      idle.on('close', () => resolve(Date.now() - started));
      idle.on('error', () => undefined);
      setTimeout(() => reject(new Error('idle connection still open after 5 s')), 5000);
    });
    expect(closedAfter).toBeGreaterThanOrEqual(250);
    expect((await working.query('SELECT count(*)::int AS n FROM sales.orders')).rows).toEqual([{ n: 2 }]);
    await working.end();
  });

  it('refuses a session beyond maxConnections with 53300, and frees the slot on logout', async () => {
    const a = await connect('alice');
    const b = await connect('bob');
    await expect(connect('carol')).rejects.toMatchObject({ code: '53300', message: 'sorry, too many clients already' });
    expect((await a.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await b.end();
    // The registry forgets a session when it ends; wait for the server to see the close.
    let c: pg.Client | null = null;
    for (let i = 0; i < 50 && !c; i++) {
      c = await connect('carol').catch(() => null);
      if (!c) await new Promise((r) => setTimeout(r, 20));
    }
    expect(c).not.toBeNull();
    await c!.end();
    await a.end();
  });
});

describe('a server-wide statement_timeout (settings.statement_timeout = 1500ms)', () => {
  it('is what SHOW says and what stops a long statement (57014), until SET changes it; RESET returns to it; the startup options override it', async () => {
    const c = await connect();
    try {
      expect((await c.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '1500ms' }]);
      const t = Date.now();
      await expect(c.query(LONG_QUERY)).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
      expect(Date.now() - t).toBeGreaterThanOrEqual(1400);
      await c.query("SET statement_timeout = '5min'");
      expect((await c.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '5min' }]);
      await c.query('RESET statement_timeout');
      expect((await c.query("SELECT current_setting('statement_timeout') AS v")).rows).toEqual([{ v: '1500ms' }]);
      await expect(c.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await c.end();
    }
    // the startup packet's options override it for the session (control: the same pg_sleep(2) runs to its end)
    const own = await connect('alice', '-c statement_timeout=0');
    try {
      expect((await own.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '0' }]);
      const t = Date.now();
      expect((await own.query('SELECT pg_sleep(2)')).rowCount).toBe(1);
      expect(Date.now() - t).toBeGreaterThanOrEqual(1900);
    } finally {
      await own.end();
    }
  }, 30000);
});
