/**
 * TLS: SSLRequest answered 'S' and the handshake done when a certificate is
 * configured; with requireTls a password is refused on a plaintext connection.
 * Clients: node-postgres and psql (libpq), against an in-process gateway.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import type { RunningServer } from '../../server/listener.js';
import { run } from '../support/clients.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let gateway: InProcessGateway;
let server: RunningServer;

beforeAll(async () => {
  gateway = await startInProcess((dir) => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], {
      stdio: 'ignore',
    });
    return { tls: { certFile: cert, keyFile: key }, requireTls: true };
  });
  server = gateway.server;
}, 60000);

afterAll(async () => {
  await gateway?.stop();
});

const client = (ssl: pg.ClientConfig['ssl']) =>
  new pg.Client({ host: '127.0.0.1', port: server.port, user: 'bob', password: 'bob', database: 'demo', ssl });

describe('TLS', () => {
  it('node-postgres logs in over TLS and reads rows', async () => {
    const c = client({ rejectUnauthorized: false });
    await c.connect();
    try {
      const r = await c.query('SELECT id, region FROM sales.orders ORDER BY id');
      expect(r.rows).toEqual([
        { id: 1, region: 'EU' },
        { id: 2, region: 'US' },
      ]);
      // The socket really is TLS.
      expect((c as unknown as { connection: { stream: { encrypted?: boolean } } }).connection.stream.encrypted).toBe(true);
    } finally {
      await c.end();
    }
  });

  it('refuses a password on a plaintext connection when TLS is required (28000)', async () => {
    const c = client(false);
    await expect(c.connect()).rejects.toMatchObject({ code: '28000', message: 'password authentication requires an encrypted connection' });
    await c.end().catch(() => undefined);
  });

  // psql runs asynchronously (run() spawns): the gateway shares this process's event loop.
  const psql = (mode: string, sql: string) =>
    run('psql', [`host=127.0.0.1 port=${server.port} dbname=demo user=bob sslmode=${mode}`, '-Atc', sql], {
      env: { ...process.env, PGPASSWORD: 'bob', PGCONNECT_TIMEOUT: '10' },
      timeoutMs: 20000,
    });

  it('psql with sslmode=require connects; sslmode=disable is refused', async () => {
    const ok = await psql('require', 'SELECT region FROM sales.orders WHERE id = 2');
    expect(ok).toMatchObject({ code: 0, stdout: 'US\n' });
    const refused = await psql('disable', 'SELECT 1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('password authentication requires an encrypted connection');
  });
});
