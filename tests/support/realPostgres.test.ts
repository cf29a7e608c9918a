import pg from 'pg';
import { findBinDir, startPostgres, type RealPostgres } from './realPostgres.js';

describe('startPostgres', () => {
  let server: RealPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('fails with a clear message when no server binaries exist (never skips)', () => {
    expect(() => findBinDir('/nonexistent/pg_config', '/nonexistent')).toThrow(/No PostgreSQL server binaries found.*postgresql/s);
  });

  it('serves a real PostgreSQL on loopback', async () => {
    const client = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      const r = await client.query('SHOW server_version_num');
      expect(Number(r.rows[0].server_version_num)).toBeGreaterThanOrEqual(100000);
    } finally {
      await client.end();
    }
  });
});
