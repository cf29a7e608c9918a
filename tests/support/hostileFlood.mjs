#!/usr/bin/env node
/**
 * Hostile sessions against a gateway, from their own process (so that the
 * client work of the attack never delays the measuring process):
 *
 *   node tests/support/hostileFlood.mjs HOST PORT SECONDS [SESSIONS]
 *
 * (user, password and database: FLOOD_USER, FLOOD_PASSWORD, FLOOD_DATABASE;
 * default alice / alice / demo, the demo's)
 * Each session loops over the statements of issue 11 that stalled or
 * exhausted the gateway: exponential LIKE / ILIKE, long constant chains,
 * a 2 MB IN list, ARRAY[ nested 600 deep, nested divisions, 3,000 UNION ALL
 * arms, a statement just inside the node limit. Prints one JSON line:
 * { statements, errors: { SQLSTATE: count }, bad: [unexpected failures] }.
 */
import pg from 'pg';

const [host, port, seconds, sessions = '1'] = process.argv.slice(2);
if (!host || !port || !seconds) {
  console.error('usage: hostileFlood.mjs HOST PORT SECONDS [SESSIONS]');
  process.exit(2);
}

const list = (n) => Array.from({ length: n }, (_, i) => i).join(',');
const plus = (n) => `select ${Array(n).fill('1').join('+')}`;
const ATTACKS = [
  "select repeat('a', 40) like '%a%a%a%a%a%a%a%a%a%a%b'",
  "select repeat('ab', 100000) ilike '%a%b%a%b%a%b%a%b%a%b%c'",
  plus(900),
  `select 1 where 1 in (${list(300_000)})`,
  `select count(*) from (values (1)) v(x) where x in (${list(4500)})`,
  `select ${'array['.repeat(600)}1${']'.repeat(600)}`,
  `select ${'1/('.repeat(20)}x${')'.repeat(20)} from (select 2 as x) t`,
  Array(3000).fill('select 1').join(' union all '),
];

const until = Date.now() + Number(seconds) * 1000;
let statements = 0;
const errors = {};
const bad = [];

async function session() {
  const env = process.env;
  const c = new pg.Client({
    host,
    port: Number(port),
    user: env.FLOOD_USER ?? 'alice',
    password: env.FLOOD_PASSWORD ?? 'alice',
    database: env.FLOOD_DATABASE ?? 'demo',
  });
  c.on('error', () => undefined);
  await c.connect();
  for (let i = 0; Date.now() < until; i++) {
    try {
      await c.query(ATTACKS[i % ATTACKS.length]);
    } catch (e) {
      if (!e.code) {
        bad.push(String(e.message));
        break;
      }
      errors[e.code] = (errors[e.code] ?? 0) + 1;
    }
    statements++;
  }
  await c.end().catch(() => undefined);
}

await Promise.all(Array.from({ length: Number(sessions) }, session));
console.log(JSON.stringify({ statements, errors, bad }));
