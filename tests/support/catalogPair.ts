/**
 * The demo gateway beside a real PostgreSQL 15 holding the same table (sales.orders, empty) that
 * alice may only read — for suites that compare catalog answers (DBeaver's navigator, BI tools'
 * metadata queries) on both: a logged-in client on each, as alice.
 */
import pg from 'pg';
import { connect } from './clients.js';
import { startPostgres, type RealPostgres } from './realPostgres.js';
import { startTarget, type Target } from './target.js';

export interface CatalogPair {
  t: Target;
  ref: RealPostgres;
  ours: pg.Client;
  theirs: pg.Client;
  stop(): Promise<void>;
}

const SEED = [
  'CREATE SCHEMA sales',
  'CREATE TABLE sales.orders (id integer, ssn text, amount numeric(10,2), region text)',
  'GRANT USAGE ON SCHEMA sales TO alice',
  'GRANT SELECT ON sales.orders TO alice',
];

export async function startCatalogPair(): Promise<CatalogPair> {
  const t = await startTarget();
  const ref = await startPostgres();
  const admin = new pg.Client({ host: ref.host, port: ref.port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('CREATE DATABASE demo');
  await admin.query('CREATE ROLE alice LOGIN');
  await admin.end();
  const seed = new pg.Client({ host: ref.host, port: ref.port, user: 'postgres', database: 'demo' });
  await seed.connect();
  for (const s of SEED) await seed.query(s);
  await seed.end();
  const theirs = new pg.Client({ host: ref.host, port: ref.port, user: 'alice', database: 'demo' });
  await theirs.connect();
  const ours = await connect(t);
  return {
    t,
    ref,
    ours,
    theirs,
    async stop() {
      await ours.end();
      await theirs.end();
      await ref.stop();
      await t.stop();
    },
  };
}
