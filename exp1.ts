import pg from 'pg';
import { startPostgres } from './tests/support/realPostgres.ts';
const s = await startPostgres();
const c = new pg.Client({ host: s.host, port: s.port, user: 'postgres', database: 'postgres' });
await c.connect();
for (const q of [`select collname from pg_collation where collname ilike '%utf%' or collname like '%icu%' limit 10`, `select 'ÄÖÜ' collate "C.utf8" ilike 'äöü' as a`, `select 'ÄÖÜ' collate "und-x-icu" ilike 'äöü' as a`, `select '𝄞' ilike '_' as a, 'ß' collate "und-x-icu" ilike 'SS' as b`]) {
  try { console.log(q, JSON.stringify((await c.query(q)).rows)); } catch (e: any) { console.log(q, 'ERR', e.message); }
}
await c.end(); await s.stop();
