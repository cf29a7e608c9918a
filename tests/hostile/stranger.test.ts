/**
 * What a stranger can learn before logging in (issue 11, Medium): nothing
 * about databases before the password is proven, nothing about which users
 * exist or are locked out from the SCRAM salt, and every malformed exchange
 * refused as PostgreSQL refuses it. Each case is compared with a real
 * PostgreSQL using the same authentication method.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoAssetDir } from '../../server/demo.js';
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { RawConn, fe, frame, parseError, type ErrorFields } from '../support/wire.js';

let scramGate: ServedGateway;
let passwordGate: ServedGateway;
let scramPg: RealPostgres;
let passwordPg: RealPostgres;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-stranger-'));
const THROTTLE = { maxFailuresPerUserAddress: 3, maxFailuresPerAddress: 1000, failureDelayMs: 200 };

beforeAll(async () => {
  scramGate = await startServe({ throttle: THROTTLE }, { dir });
  passwordGate = await startServe({ localAuth: 'password', throttle: THROTTLE });
  scramPg = await startPostgres({ hostAuth: { method: 'scram-sha-256', password: 'secret' } });
  passwordPg = await startPostgres({ hostAuth: { method: 'password', password: 'secret' } });
}, 120000);

afterAll(async () => {
  await scramGate?.stop();
  await passwordGate?.stop();
  await scramPg?.stop();
  await passwordPg?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Target = { host?: string; port: number };

/** Start a login and return the connection after the server's first authentication request. */
async function begin(t: Target, user: string, database = 'demo'): Promise<RawConn> {
  const c = await RawConn.connect('127.0.0.1', t.port);
  c.send(fe.startup({ user, database }));
  const m = await c.next();
  if (m?.type !== 'R') throw new Error(`expected an authentication request, got ${m?.type} ${m && m.type === 'E' ? parseError(m.body).message : ''}`);
  return c;
}

/** The server's answer that ends the exchange (its FATAL error), or null when it logged in. */
async function outcome(c: RawConn): Promise<ErrorFields | null> {
  for (;;) {
    const m = await c.next(10000);
    if (!m) return null;
    if (m.type === 'E') return parseError(m.body);
    if (m.type === 'Z') return null;
  }
}

/** SCRAM's client-first → the server-first attributes (salt, iterations, nonce). */
async function serverFirst(c: RawConn, clientFirst: string): Promise<Record<string, string>> {
  c.send(fe.saslInitial('SCRAM-SHA-256', clientFirst));
  const m = await c.next();
  if (m?.type !== 'R' || m.body.readInt32BE(0) !== 11) throw new Error(`no server-first-message: ${m?.type === 'E' ? parseError(m.body).message : m?.type}`);
  return Object.fromEntries(m.body.subarray(4).toString('utf8').split(',').map((kv) => [kv[0]!, kv.slice(2)]));
}

async function saltOf(t: Target, user: string): Promise<string> {
  const c = await begin(t, user);
  const attrs = await serverFirst(c, `n,,n=,r=${crypto.randomBytes(12).toString('base64')}`);
  c.close();
  return `${attrs['s']}:${attrs['i']}`;
}

const pgError = (e: ErrorFields | null) => e && { code: e.code, message: e.message, detail: e.detail };

describe('the database is checked only after the password', () => {
  test('unknown database + wrong password → 28P01 (not 3D000, as before); + right password → 3D000, as PostgreSQL', async () => {
    for (const [t, user, right] of [[scramGate, 'alice', 'alice'], [scramPg, 'postgres', 'secret']] as const) {
      const wrong = await RawConn.connect('127.0.0.1', t.port);
      await expect(wrong.startup(user, 'nosuchdb', 'not-the-password')).rejects.toThrow(/^28P01: password authentication failed for user/);
      wrong.close();
      const ok = await RawConn.connect('127.0.0.1', t.port);
      await expect(ok.startup(user, 'nosuchdb', right)).rejects.toThrow('3D000: database "nosuchdb" does not exist');
      ok.close();
    }
  });
});

describe('the SCRAM salt tells nothing', () => {
  test('an unknown user gets the same mock salt every time, and after a restart (the server secret is kept)', async () => {
    const first = await saltOf(scramGate, 'nobody-here');
    expect(await saltOf(scramGate, 'nobody-here')).toBe(first);
    expect(await saltOf(scramGate, 'someone-else')).not.toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9+/]{22}==:4096$/);
    // a second instance sharing the secret file answers alike …
    const second = await startServe({ throttle: THROTTLE, serverSecretFile: path.join(dir, 'data', 'lakegate.secret') });
    try {
      expect(await saltOf(second, 'nobody-here')).toBe(first);
    } finally {
      await second.stop();
    }
    // … and so does this one after a restart
    await scramGate.stop();
    scramGate = await startServe({ throttle: THROTTLE }, { dir });
    expect(await saltOf(scramGate, 'nobody-here')).toBe(first);
  }, 60000);

  test("a locked-out user's exchange keeps the real salt and iteration count (it switched to a mock salt before)", async () => {
    const users = JSON.parse(fs.readFileSync(path.join(demoAssetDir(), 'users.json'), 'utf8')) as { users: { name: string; scram: string }[] };
    const verifier = users.users.find((u) => u.name === 'carol')!.scram;
    const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(verifier)!;
    expect(await saltOf(scramGate, 'carol')).toBe(`${salt}:${iterations}`);
    for (let i = 0; i < THROTTLE.maxFailuresPerUserAddress; i++) {
      const c = await RawConn.connect('127.0.0.1', scramGate.port);
      await expect(c.startup('carol', 'demo', 'wrong')).rejects.toThrow(/28P01/);
      c.close();
    }
    // locked out: the right password is refused like a wrong one …
    const locked = await RawConn.connect('127.0.0.1', scramGate.port);
    await expect(locked.startup('carol', 'demo', 'carol')).rejects.toThrow('28P01: password authentication failed for user "carol"');
    locked.close();
    // … and the salt is the one it always had
    expect(await saltOf(scramGate, 'carol')).toBe(`${salt}:${iterations}`);
  }, 30000);
});

describe('malformed SCRAM exchanges, refused as PostgreSQL refuses them', () => {
  const both = [
    ['lakegate', () => scramGate, 'alice'],
    ['postgres', () => scramPg, 'postgres'],
  ] as const;

  const answers = async (run: (t: Target, user: string) => Promise<ErrorFields | null>) => {
    const out: Record<string, unknown> = {};
    for (const [name, t, user] of both) out[name] = pgError(await run(t(), user));
    return out;
  };

  test('an authorization identity (a=) → 0A000 (accepted and ignored before)', async () => {
    const out = await answers(async (t, user) => {
      const c = await begin(t, user);
      c.send(fe.saslInitial('SCRAM-SHA-256', `n,a=${user},n=,r=abcdefghijkl`));
      return outcome(c);
    });
    expect(out['lakegate']).toEqual(out['postgres']);
    expect(out['lakegate']).toMatchObject({ code: '0A000' });
  });

  test("channel-binding flag 'p' → 08P01 malformed SCRAM message", async () => {
    const out = await answers(async (t, user) => {
      const c = await begin(t, user);
      c.send(fe.saslInitial('SCRAM-SHA-256', 'p=tls-server-end-point,,n=,r=abcdefghijkl'));
      return outcome(c);
    });
    expect(out['lakegate']).toEqual(out['postgres']);
  });

  test("client-first 'y' but client-final c=biws (and 'n' with c=eSws) → 08P01 (accepted before)", async () => {
    for (const [flag, cbind] of [['y', 'biws'], ['n', 'eSws']]) {
      const out = await answers(async (t, user) => {
        const c = await begin(t, user);
        const attrs = await serverFirst(c, `${flag},,n=,r=abcdefghijkl`);
        c.send(fe.saslResponse(`c=${cbind},r=${attrs['r']},p=${Buffer.alloc(32).toString('base64')}`));
        return outcome(c);
      });
      expect(out['lakegate']).toEqual(out['postgres']);
      expect(out['lakegate']).toMatchObject({ code: '08P01', message: 'unexpected SCRAM channel-binding attribute in client-final-message' });
    }
  });
});

describe('cleartext passwords', () => {
  const both = [
    ['lakegate', () => passwordGate, 'alice', 'alice'],
    ['postgres', () => passwordPg, 'postgres', 'secret'],
  ] as const;

  test('a NUL inside the password → 08P01 invalid password packet size (the part before the NUL logged in before)', async () => {
    const out: Record<string, unknown> = {};
    for (const [name, t, user, password] of both) {
      const c = await begin(t(), user);
      c.send(frame('p', Buffer.from(`${password}\0junk\0`)));
      out[name] = pgError(await outcome(c));
      c.close();
    }
    expect(out['lakegate']).toEqual(out['postgres']);
    expect(out['lakegate']).toMatchObject({ code: '08P01', message: 'invalid password packet size' });
  });

  test('an empty password is refused as PostgreSQL refuses it, after the same delay as a wrong one, and counts for throttling', async () => {
    const ref = await begin(passwordPg, 'postgres');
    ref.send(fe.password(''));
    const theirs = pgError(await outcome(ref));
    ref.close();
    const times: number[] = [];
    for (let i = 0; i < THROTTLE.maxFailuresPerUserAddress; i++) {
      const c = await begin(passwordGate, 'dave');
      const t = performance.now();
      c.send(fe.password(''));
      expect(pgError(await outcome(c))).toEqual(theirs);
      times.push(performance.now() - t);
      c.close();
    }
    // answered no sooner than a wrong password (immediately before)
    expect(Math.min(...times)).toBeGreaterThanOrEqual(THROTTLE.failureDelayMs - 20);
    // three empty passwords lock dave out: now the right one is refused too (it was not counted before)
    const c = await RawConn.connect('127.0.0.1', passwordGate.port);
    await expect(c.startup('dave', 'demo', 'dave')).rejects.toThrow('28P01: password authentication failed for user "dave"');
    c.close();
    // control: another user with the right password logs in
    const ok = await RawConn.connect('127.0.0.1', passwordGate.port);
    await ok.startup('erin', 'demo', 'erin');
    ok.close();
  }, 30000);
});
