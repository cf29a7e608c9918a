/**
 * The audit trail end to end: an in-process demo gateway writing Ranger audit
 * events as JSON lines to a file and in batches to an HTTP sink, driven by
 * node-postgres. Expected policy ids are read from the demo's policy files
 * (demo/ranger/lakehouse.json for the data gate, demo/polaris/polaris.json
 * for the catalog gate), never from lakegate's output. Passwords are made up
 * here so that finding them anywhere in the trail would be a leak, not a
 * coincidence with a user name; the mask key is the demo's.
 *
 * A second gateway posts to a sink that accepts connections and never
 * answers: queries run as fast as without it and the dropped events are
 * counted and logged.
 */
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type pg from 'pg';
import type { AuthzAuditEvent } from '../../server/audit/event.js';
import { DEMO_MASK_KEY } from '../../server/demo.js';
import { addUser } from '../../server/usersFileEdit.js';
import { connect, rejection } from '../support/clients.js';
import { REPO_ROOT } from '../support/lakegate.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];
const PASSWORD: Record<string, string> = Object.fromEntries(USERS.map((u) => [u, `Pw-${u}-q7Zk!${u.length * 31}x`]));

const lakehouse = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'demo', 'ranger', 'lakehouse.json'), 'utf8')) as Json;
const polaris = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'demo', 'polaris', 'polaris.json'), 'utf8')) as Json;
const policies = lakehouse['policies'] as Json[];
/** The access policy that grants select on sales tables. */
const READ_POLICY = policies.find((p) => (p['policyType'] ?? 0) === 0 && p['resources']['database'].values.includes('sales'))!['id'] as number;
/** The mask policy of a column of sales.orders, and the mask type it gives a role. */
const maskPolicy = (column: string) => policies.find((p) => p['policyType'] === 1 && p['resources']['column'].values.includes(column))!;
const maskFor = (column: string, role: string) =>
  (maskPolicy(column)['dataMaskPolicyItems'] as Json[]).find((i) => (i['roles'] as string[]).includes(role))!['dataMaskInfo']['dataMaskType'] as string;
const FILTER_POLICY = policies.find((p) => p['policyType'] === 2)!;
/** The polaris policy that lets analysts load tables (the one with a table resource). */
const LOAD_TABLE_POLICY = (polaris['policies'] as Json[]).find((p) => p['resources']['table'] !== undefined)!['id'] as number;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-audit-it-'));
const usersFile = path.join(dir, 'users.json');
const auditFile = path.join(dir, 'audit', 'events.jsonl');
let gw: InProcessGateway;
let sink: Server;
const posted: { size: number; body: string }[] = [];

beforeAll(async () => {
  for (const u of USERS) addUser(usersFile, u, PASSWORD[u]!);
  sink = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      posted.push({ size: (JSON.parse(body) as unknown[]).length, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/audit`;
  gw = await startInProcess(() => ({
    usersFile,
    localAuth: 'password',
    audit: { destination: 'file', file: auditFile, http: { url, batchSize: 5, flushMs: 100, maxQueue: 10_000, timeoutMs: 5000 } },
  }));
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  sink?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const target = () => ({ host: '127.0.0.1', port: gw.server.port });
const login = (user: string, over: Partial<pg.ClientConfig> = {}) => connect(target(), { user, password: PASSWORD[user]!, ...over });

/** The complete lines of the audit file, decoded. */
function fileEvents(): AuthzAuditEvent[] {
  if (!fs.existsSync(auditFile)) return [];
  const text = fs.readFileSync(auditFile, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuthzAuditEvent);
}

/** Waits until `pred` holds for the events written so far (they are written asynchronously). */
async function events(pred: (all: AuthzAuditEvent[]) => boolean, ms = 5000): Promise<AuthzAuditEvent[]> {
  const end = Date.now() + ms;
  for (;;) {
    const all = fileEvents();
    if (pred(all)) return all;
    if (Date.now() > end) throw new Error(`audit events not as expected:\n${all.map((e) => JSON.stringify(e)).join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const since = (seq: number) => (e: AuthzAuditEvent) => e.seq_num > seq;
const lastSeq = () => fileEvents().reduce((m, e) => Math.max(m, e.seq_num), -1);

test('logins: allowed with the session id and address; refused for a wrong password, an unknown user and a missing database', async () => {
  const c = await login('alice');
  const pid = (c as unknown as { processID: number }).processID;
  await c.end();
  expect((await rejection(login('alice', { password: 'Wrong-Guess-55' }))).code).toBe('28P01');
  expect((await rejection(connect(target(), { user: 'mallory', password: 'Mallory-Guess-66' }))).code).toBe('28P01');
  expect((await rejection(login('bob', { database: 'nosuchdb' }))).code).toBe('3D000');
  const all = await events((a) => a.filter((e) => e.access === 'login').length >= 4);
  const logins = all.filter((e) => e.access === 'login').map((e) => [e.reqUser, e.resource, e.result, e.sess, e.cliIP]);
  expect(logins).toEqual([
    ['alice', 'demo', 1, String(pid), '127.0.0.1'],
    ['alice', 'demo', 0, null, '127.0.0.1'],
    ['mallory', 'demo', 0, null, '127.0.0.1'],
    ['bob', 'nosuchdb', 0, null, '127.0.0.1'],
  ]);
  for (const e of all.filter((x) => x.access === 'login')) expect(e).toMatchObject({ enforcer: 'lakegate', logType: 'RangerAudit', resType: '@database', policy: -1 });
}, 60_000);

test('a masked read: the catalog gate’s load, the select, each mask with its policy id, and the redacted text', async () => {
  const from = lastSeq();
  const bob = await login('bob', { application_name: 'audit-it' });
  const pid = String((bob as unknown as { processID: number }).processID);
  const r = await bob.query("select id, ssn, amount from sales.orders where region = 'US' and id > 1");
  expect(r.rows).toHaveLength(1);
  await bob.end();
  const mine = (all: AuthzAuditEvent[]) => all.filter(since(from)).filter((e) => e.reqUser === 'bob' && e.action !== 'login');
  const all = await events((a) => mine(a).some((e) => e.access === maskFor('amount', 'engineer')));
  const got = mine(all);
  const load = got.find((e) => e.action === 'LOAD_TABLE')!;
  // the catalog call was made for this session's statement
  expect(load).toMatchObject({ repo: 'polaris', result: 1, policy: LOAD_TABLE_POLICY, sess: pid, cliIP: '127.0.0.1' });
  expect(load.resource.endsWith('demo/sales/orders')).toBe(true);
  const query = got.filter((e) => e.repo === 'lakehouse').map((e) => [e.access, e.resource, e.result, e.policy]);
  expect(query).toEqual([
    ['select', 'sales/orders', 1, READ_POLICY],
    [maskFor('ssn', 'engineer'), 'sales/orders/ssn', 1, maskPolicy('ssn')['id']],
    [maskFor('amount', 'engineer'), 'sales/orders/amount', 1, maskPolicy('amount')['id']],
  ]);
  for (const e of got.filter((x) => x.repo === 'lakehouse')) {
    expect(e.reqData).toBe('select id, ssn, amount from sales.orders where region = $1 and id > $2');
    expect(e).toMatchObject({ cliIP: '127.0.0.1', cliType: 'audit-it', sess: pid, repoType: lakehouse['serviceDef']['id'] ?? 0 });
  }
}, 60_000);

test('a row filter is audited with its policy; a MASK_SHOW_LAST_4 user reads through the cached plan and is audited again', async () => {
  const from = lastSeq();
  const erin = await login('erin');
  await erin.query('select id, ssn from sales.orders');
  await erin.query('select id, ssn from sales.orders');
  await erin.end();
  const mine = (all: AuthzAuditEvent[]) => all.filter(since(from)).filter((e) => e.reqUser === 'erin' && e.repo === 'lakehouse' && e.action !== 'login');
  const got = mine(await events((a) => mine(a).filter((e) => e.access === 'ROW_FILTER').length >= 2));
  const one = [
    ['select', 1, READ_POLICY],
    ['ROW_FILTER', 1, FILTER_POLICY['id']],
    [maskFor('ssn', 'analyst'), 1, maskPolicy('ssn')['id']],
  ];
  expect(got.map((e) => [e.access, e.result, e.policy])).toEqual([...one, ...one]);
}, 60_000);

test('a named prepared statement is audited at each execution, not once at Parse', async () => {
  const from = lastSeq();
  const alice = await login('alice');
  for (const id of [1, 2, 3]) {
    const r = await alice.query({ name: 'one_order', text: 'select id from sales.orders where id = $1', values: [id] });
    expect(r.rows.length).toBe(id <= 2 ? 1 : 0);
  }
  await alice.end();
  const selects = (all: AuthzAuditEvent[]) => all.filter(since(from)).filter((e) => e.reqUser === 'alice' && e.repo === 'lakehouse' && e.access === 'select');
  const got = selects(await events((a) => selects(a).length >= 3));
  expect(got.map((e) => [e.resource, e.result, e.policy, e.reqData])).toEqual(
    [1, 2, 3].map(() => ['sales/orders', 1, READ_POLICY, 'select id from sales.orders where id = $1']),
  );
}, 60_000);

test('dave (no grant) gets 42P01 and a denied event; the catalog gate’s refusal is audited too; control: carol reads the table', async () => {
  const carol = await login('carol');
  expect((await carol.query('select count(*)::int as n from sales.orders')).rows[0].n).toBe(2);
  await carol.end();
  const from = lastSeq();
  const dave = await login('dave');
  const e = await rejection(dave.query("select ssn from sales.orders where ssn = '111-11-1111'"));
  expect(e.code).toBe('42P01');
  await dave.end();
  const mine = (all: AuthzAuditEvent[]) => all.filter(since(from)).filter((x) => x.reqUser === 'dave' && x.action !== 'login');
  const got = mine(await events((a) => mine(a).some((x) => x.repo === 'lakehouse')));
  const denied = got.filter((x) => x.repo === 'lakehouse');
  expect(denied).toHaveLength(1);
  expect(denied[0]).toMatchObject({ access: 'select', resource: 'sales/orders', resType: '@table', result: 0, policy: -1, reqData: 'select ssn from sales.orders where ssn = $1' });
  expect(denied[0]!.reason).toContain('42P01');
  // dave cannot even list the catalog's namespaces: Polaris's decision, no policy allowing it
  expect(got.find((x) => x.repo === 'polaris')).toMatchObject({ action: 'LIST_NAMESPACES', result: 0, policy: -1 });
  expect(got.some((x) => x.result === 1)).toBe(false);
}, 60_000);

test('to_regclass of a missing or hidden name writes the event the ::regclass probe writes, at each run (it wrote none); control: carol’s to_regclass of a table she reads', async () => {
  const from = lastSeq();
  const dave = await login('dave');
  const probes: Record<string, AuthzAuditEvent[]> = {};
  for (const name of ['hr.salaries', 'sales.orders']) {
    // the reference: the cast fails with 42P01 and is audited
    const seq = lastSeq();
    expect((await rejection(dave.query(`select '${name}'::regclass`))).code).toBe('42P01');
    const cast = (all: AuthzAuditEvent[]) => all.filter(since(seq)).filter((e) => e.reqUser === 'dave' && e.repo === 'lakehouse' && e.action !== 'login');
    probes[`cast ${name}`] = cast(await events((a) => cast(a).length >= 1));
    // to_regclass answers NULL, as PostgreSQL does for a missing name, run twice (the second from the cached plan)
    const seq2 = lastSeq();
    for (let i = 0; i < 2; i++) expect((await dave.query(`select to_regclass('${name}') as r`)).rows).toEqual([{ r: null }]);
    const probe = (all: AuthzAuditEvent[]) => all.filter(since(seq2)).filter((e) => e.reqUser === 'dave' && e.repo === 'lakehouse' && e.action !== 'login');
    probes[`to_regclass ${name}`] = probe(await events((a) => probe(a).length >= 2));
  }
  await dave.end();
  const shape = (e: AuthzAuditEvent) => [e.access, e.resource, e.resType, e.result, e.policy, e.reason];
  for (const name of ['hr.salaries', 'sales.orders']) {
    const cast = probes[`cast ${name}`]!.map(shape);
    expect(cast).toEqual([['select', name.replace('.', '/'), '@table', 0, -1, `42P01: relation "${name}" does not exist`]]);
    expect(probes[`to_regclass ${name}`]!.map(shape)).toEqual([...cast, ...cast]);
    for (const e of probes[`to_regclass ${name}`]!) expect(e.reqData).toBe('select to_regclass($1) as r');
  }
  // control: a name carol may read is found, and nothing is denied
  const seq = lastSeq();
  const carol = await login('carol');
  expect((await carol.query("select to_regclass('sales.orders') is not null as found")).rows).toEqual([{ found: true }]);
  // a read after it: once its event is in the file, so is anything the probe wrote (events keep their order)
  expect((await carol.query('select count(*)::int as n from sales.orders')).rows).toEqual([{ n: 2 }]);
  await carol.end();
  await events((a) => a.filter(since(seq)).some((e) => e.reqUser === 'carol' && e.access === 'select' && e.result === 1));
  expect(fileEvents().filter(since(seq)).filter((e) => e.reqUser === 'carol' && e.result === 0)).toEqual([]);
  expect(fileEvents().filter(since(from)).filter((e) => e.reqUser === 'dave' && e.result === 1 && e.repo === 'lakehouse' && e.action !== 'login')).toEqual([]);
}, 60_000);

test('a refused write is audited with its command and redacted values', async () => {
  const from = lastSeq();
  const alice = await login('alice');
  const e = await rejection(alice.query("insert into sales.orders values (3, '333-33-3333', 9.99, 'EU')"));
  expect(e.code).toBe('42501');
  await alice.end();
  const got = (await events((a) => a.filter(since(from)).some((x) => x.action === 'INSERT'))).filter(since(from)).filter((x) => x.action === 'INSERT');
  expect(got).toHaveLength(1);
  // Ranger's Hive access type for INSERT is update, on the table
  expect(got[0]).toMatchObject({ reqUser: 'alice', access: 'update', result: 0, resource: 'sales/orders', reqData: 'insert into sales.orders values ($1, $2, $3, $4)' });
  expect(got[0]!.reason).toContain('42501');
}, 60_000);

test('EXPLAIN of a masked table, refused with 42501, is audited as a refused select', async () => {
  const from = lastSeq();
  const alice = await login('alice');
  expect((await rejection(alice.query("explain select * from sales.orders where ssn = '111-11-1111'"))).code).toBe('42501');
  await alice.end();
  const refused = (all: AuthzAuditEvent[]) => all.filter(since(from)).filter((x) => x.reqUser === 'alice' && x.result === 0);
  const got = refused(await events((a) => refused(a).length >= 1));
  expect(got).toHaveLength(1);
  expect(got[0]).toMatchObject({ repo: 'lakehouse', access: 'select', resType: '@statement', reqData: 'explain select * from sales.orders where ssn = $1' });
  expect(got[0]!.reason).toContain('42501');
}, 60_000);

test('the HTTP sink got every event, in batches of at most 5; no password and no mask key anywhere in the trail', async () => {
  const inFile = fileEvents();
  const deadline = Date.now() + 5000;
  while (posted.reduce((n, p) => n + p.size, 0) < inFile.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const viaHttp = posted.flatMap((p) => JSON.parse(p.body) as AuthzAuditEvent[]);
  expect(new Set(viaHttp.map((e) => e.id))).toEqual(new Set(inFile.map((e) => e.id)));
  expect(Math.max(...posted.map((p) => p.size))).toBeLessThanOrEqual(5);
  const trail = fs.readFileSync(auditFile, 'utf8') + posted.map((p) => p.body).join('\n');
  // the control: the trail does hold what the sessions did
  expect(trail).toContain('"reqUser":"bob"');
  for (const secret of [...Object.values(PASSWORD), 'Wrong-Guess-55', 'Mallory-Guess-66', DEMO_MASK_KEY, '333-33-3333', '111-11-1111']) {
    expect(trail).not.toContain(secret);
  }
}, 60_000);

describe('a sink that hangs', () => {
  let hanging: Server;
  let gw2: InProcessGateway;
  const logLines: Json[] = [];
  const file2 = path.join(dir, 'hang', 'events.jsonl');

  beforeAll(async () => {
    hanging = createServer(() => undefined); // accepts, reads, never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/audit`;
    const logger = pino({ level: 'info' }, { write: (s: string) => void logLines.push(JSON.parse(s) as Json) });
    gw2 = await startInProcess(
      () => ({ usersFile, audit: { destination: 'file', file: file2, http: { url, batchSize: 2, flushMs: 50, maxQueue: 4, timeoutMs: 30_000 } } }),
      { logger },
    );
  }, 120_000);

  afterAll(async () => {
    hanging?.closeAllConnections();
    hanging?.close();
    await gw2?.stop();
  }, 60_000);

  test('queries are not slowed, every event still reaches the file, the dropped ones are counted and logged', async () => {
    // SCRAM this time: a failed proof is a refused login too
    expect((await rejection(connect({ host: '127.0.0.1', port: gw2.server.port }, { user: 'alice', password: 'Scram-Wrong-77' }))).code).toBe('28P01');
    const c = await connect({ host: '127.0.0.1', port: gw2.server.port }, { user: 'alice', password: PASSWORD['alice']! });
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await c.query(`select id from sales.orders where id = ${i}`);
      times.push(performance.now() - t0);
    }
    await c.end();
    // The sink holds each request for its 30 s timeout; a query that waited on it would take that long.
    expect(Math.max(...times)).toBeLessThan(2000);
    const lines = await (async () => {
      const end = Date.now() + 5000;
      for (;;) {
        const text = fs.existsSync(file2) ? fs.readFileSync(file2, 'utf8') : '';
        const n = text.split('\n').filter((l) => l.includes('"repo":"lakehouse"')).length;
        if (n >= 30 * 2 || Date.now() > end) return text;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    // one select event per query, none lost to the hanging sink
    expect(lines.split('\n').filter((l) => l.includes('"access":"select"') && l.includes('"repo":"lakehouse"'))).toHaveLength(30);
    const logins = lines.split('\n').filter((l) => l.includes('"access":"login"')).map((l) => JSON.parse(l) as AuthzAuditEvent);
    expect(logins.map((e) => [e.reqUser, e.result])).toEqual([['alice', 0], ['alice', 1]]);
    expect(lines).not.toContain('Scram-Wrong-77');
    const drops = logLines.filter((l) => l['event'] === 'audit-dropped');
    expect(drops.length).toBeGreaterThan(0);
    expect(drops[0]!['dropped']).toBeGreaterThan(0);
  }, 60_000);
});

test('requireTls: a login without TLS is refused and audited before any password is asked', async () => {
  const file3 = path.join(dir, 'tls', 'events.jsonl');
  const gw3 = await startInProcess(() => ({ usersFile, requireTls: true, audit: { destination: 'file', file: file3 } }));
  try {
    const e = await rejection(connect({ host: '127.0.0.1', port: gw3.server.port }, { user: 'carol', password: PASSWORD['carol']!, ssl: false }));
    expect(e.code).toBe('28000');
  } finally {
    await gw3.stop();
  }
  const got = fs.readFileSync(file3, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as AuthzAuditEvent);
  expect(got.map((x) => [x.reqUser, x.access, x.result, x.reason])).toEqual([['carol', 'login', 0, 'password authentication requires an encrypted connection']]);
}, 120_000);
