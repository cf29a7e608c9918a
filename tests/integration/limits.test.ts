/**
 * Connection limits: a client that never logs in is dropped after the
 * authentication timeout, the session limit answers 53300 as PostgreSQL does,
 * and neither disturbs a session already working.
 */
import net from 'node:net';
import pg from 'pg';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let gateway: InProcessGateway;

beforeAll(async () => {
  gateway = await startInProcess(() => ({ authTimeoutMs: 300, maxConnections: 2 }));
}, 60000);

afterAll(async () => {
  await gateway?.stop();
});

const connect = async (user = 'alice') => {
  const c = new pg.Client({ host: '127.0.0.1', port: gateway.server.port, user, password: user, database: 'demo' });
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
