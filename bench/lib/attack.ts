/**
 * One attack of issue 18 against a server, from a process of its own (so the
 * attack's client work never delays the process measuring the normal sessions):
 *
 *   node --import tsx bench/lib/attack.ts '<AttackSpec as JSON>'
 *
 * Prints `{"started":true}` once the attack is under way, then one JSON line:
 * the AttackReport. The same attacks run against lakegate and PostgreSQL.
 */
import net from 'node:net';
import pg from 'pg';

export type AttackName = 'oom' | 'repeat' | 'crossjoin' | 'lockout' | 'idle' | 'missing';

export interface Login {
  user: string;
  password: string;
}

export interface AttackSpec {
  attack: AttackName;
  host: string;
  port: number;
  database: string;
  /** Who attacks (dave: no grants). */
  attacker: Login;
  /** The user the lockout attempt aims at (erin). */
  victim: Login;
  /** How long a time-bounded attack lasts. */
  seconds: number;
  /** Distinct missing names looked up (the missing attack). */
  missingNames: number;
}

export interface AttackReport {
  attack: AttackName;
  /** Statements (or login attempts) the attack sent, answered or refused. */
  statements: number;
  /** Their outcomes: SQLSTATE → count, `ok` for an answer. */
  outcomes: Record<string, number>;
  /** Sessions the attacker's connections lost and made again. */
  reconnects: number;
  seconds: number;
  /** lockout: the wrong-password answers' times (ms), the victim's logins from another address for the phase (ms), how those logins ended, and the victim's right password from the attacker's address afterwards. */
  attackerAnswersMs?: number[];
  victimLoginsMs?: number[];
  victimOutcomes?: Record<string, number>;
  victimFromAttackerAddress?: string;
  /** idle: sessions held open. */
  held?: number;
}

export const OOM_QUERY = "select length(string_agg(repeat('x', 1000), '')) from generate_series(1, 20000000)";
export const HUGE_STRING = "select length(repeat('x', 999999999))";
export const CROSS_JOIN = 'select count(*) from generate_series(1, 200000) a, generate_series(1, 200000) b';
const ATTACKER_ADDRESS = '127.0.0.2';
const VICTIM_ADDRESS = '127.0.0.3';

/** A socket factory binding the client end to `localAddress` (a loopback alias): lockout needs two addresses. */
function fromAddress(localAddress: string): () => net.Socket {
  return () => {
    const socket = new net.Socket();
    const connect = socket.connect.bind(socket) as (options: net.TcpSocketConnectOpts) => net.Socket;
    (socket as unknown as { connect: (port: number, host: string) => net.Socket }).connect = (port, host) => connect({ port, host, localAddress });
    return socket;
  };
}

const codeOf = (e: unknown): string => (e as { code?: string }).code ?? 'no SQLSTATE';
const count = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Clients whose connection has ended (a FATAL error, the server going away). */
const lost = new WeakSet<pg.Client>();

async function open(s: AttackSpec, who: Login, from?: string): Promise<pg.Client> {
  const c = new pg.Client({ host: s.host, port: s.port, database: s.database, user: who.user, password: who.password, ...(from ? { stream: fromAddress(from) } : {}) });
  c.on('error', () => lost.add(c));
  c.on('end', () => lost.add(c));
  await c.connect();
  return c;
}

/** `sessions` attacker sessions, each sending `sql` again and again until `until`; a lost session is made again. */
async function loop(s: AttackSpec, sessions: number, sql: string, until: number, r: AttackReport): Promise<void> {
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      let c = await open(s, s.attacker);
      while (Date.now() < until) {
        try {
          await c.query(sql);
          count(r.outcomes, 'ok');
        } catch (e) {
          const code = codeOf(e);
          count(r.outcomes, code);
          // FATAL, or the connection went: the attacker simply comes back
          if (lost.has(c) || code === 'no SQLSTATE' || code.startsWith('57P') || code.startsWith('08')) {
            await c.end().catch(() => undefined);
            c = await reconnect(s, until);
            r.reconnects++;
          }
        }
        r.statements++;
      }
      await c.end().catch(() => undefined);
    }),
  );
}

async function reconnect(s: AttackSpec, until: number): Promise<pg.Client> {
  for (;;) {
    try {
      return await open(s, s.attacker);
    } catch (e) {
      if (Date.now() > until + 30_000) throw e;
      await sleep(200);
    }
  }
}

async function login(s: AttackSpec, who: Login, from: string): Promise<{ ms: number; outcome: string }> {
  const t = performance.now();
  try {
    const c = await open(s, who, from);
    await c.end();
    return { ms: performance.now() - t, outcome: 'ok' };
  } catch (e) {
    return { ms: performance.now() - t, outcome: codeOf(e) };
  }
}

const started = () => console.log(JSON.stringify({ started: true }));

async function run(s: AttackSpec): Promise<AttackReport> {
  const r: AttackReport = { attack: s.attack, statements: 0, outcomes: {}, reconnects: 0, seconds: 0 };
  const t0 = performance.now();
  const until = () => Date.now() + s.seconds * 1000;
  switch (s.attack) {
    case 'oom':
      started();
      await loop(s, 1, OOM_QUERY, until(), r);
      break;
    case 'repeat':
      started();
      await loop(s, 4, HUGE_STRING, until(), r);
      break;
    case 'crossjoin': {
      // four sessions of one user, each in a cross join that outlasts the phase (statement_timeout ends it)
      const cs = await Promise.all([1, 2, 3, 4].map(() => open(s, s.attacker)));
      await Promise.all(cs.map((c) => c.query(`set statement_timeout = '${s.seconds}s'`)));
      started();
      await Promise.all(
        cs.map(async (c) => {
          try {
            await c.query(CROSS_JOIN);
            count(r.outcomes, 'ok');
          } catch (e) {
            count(r.outcomes, codeOf(e));
          }
          r.statements++;
          await c.end().catch(() => undefined);
        }),
      );
      break;
    }
    case 'lockout': {
      started();
      const wrong = { user: s.victim.user, password: 'not-the-password' };
      const attempts = await Promise.all(Array.from({ length: 12 }, () => login(s, wrong, ATTACKER_ADDRESS)));
      for (const a of attempts) count(r.outcomes, a.outcome);
      r.statements = attempts.length;
      r.attackerAnswersMs = attempts.map((a) => a.ms);
      // then erin, with her password, from another address: every 200 ms for the phase
      r.victimLoginsMs = [];
      r.victimOutcomes = {};
      for (const end = until(); Date.now() < end; await sleep(200)) {
        const v = await login(s, s.victim, VICTIM_ADDRESS);
        r.victimLoginsMs.push(v.ms);
        count(r.victimOutcomes, v.outcome);
      }
      r.victimFromAttackerAddress = (await login(s, s.victim, ATTACKER_ADDRESS)).outcome;
      break;
    }
    case 'idle': {
      // 200 sessions, opened ten at a time (as a pool would), then left idle for the phase
      const held: pg.Client[] = [];
      for (let i = 0; i < 200; i += 10) {
        const batch = await Promise.allSettled(Array.from({ length: 10 }, () => open(s, s.attacker)));
        for (const b of batch) {
          r.statements++;
          if (b.status === 'fulfilled') {
            held.push(b.value);
            count(r.outcomes, 'ok');
          } else count(r.outcomes, codeOf(b.reason));
        }
      }
      r.held = held.length;
      started();
      await sleep(s.seconds * 1000);
      await Promise.all(held.map((c) => c.end().catch(() => undefined)));
      break;
    }
    case 'missing': {
      const sessions = 4;
      const cs = await Promise.all(Array.from({ length: sessions }, () => open(s, s.attacker)));
      const tag = Date.now().toString(36);
      started();
      await Promise.all(
        cs.map(async (c, k) => {
          for (let i = k; i < s.missingNames; i += sessions) {
            try {
              await c.query(`select * from sales.missing_${tag}_${i}`);
              count(r.outcomes, 'ok');
            } catch (e) {
              count(r.outcomes, codeOf(e));
            }
            r.statements++;
          }
          await c.end().catch(() => undefined);
        }),
      );
      break;
    }
  }
  r.seconds = (performance.now() - t0) / 1000;
  return r;
}

const spec = JSON.parse(process.argv[2] ?? '') as AttackSpec;
console.log(JSON.stringify(await run(spec)));
