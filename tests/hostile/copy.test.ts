/**
 * COPY … TO STDOUT is governed like any query: it streams with back-pressure
 * (a client that stops reading stops the engine, so memory stays bounded),
 * and statement_timeout, CancelRequest and a client that hangs up stop it
 * mid-stream. The gateway runs as its own process, so its CPU time is its own.
 */
import net from 'node:net';
import { startServe, type ServedGateway } from '../support/lakegateServe.js';
import { fe, parseError, RawConn, type BackendMessage } from '../support/wire.js';
import { connected, eventually, ping, sleep } from './support.js';

let g: ServedGateway;

beforeAll(async () => {
  g = await startServe({ engine: { threads: 2, memoryLimit: '1GB' } });
}, 90000);

afterAll(async () => {
  await g?.stop();
});

/** Rows enough to run for minutes: each ~110 bytes of CopyData. */
const ENDLESS_COPY = "COPY (SELECT i, repeat('x', 100) AS pad FROM generate_series(1, 10000000000) AS g(i)) TO STDOUT";

async function login(user = 'carol'): Promise<RawConn> {
  const c = await RawConn.connect(g.host, g.port);
  await c.startup(user, 'demo', user);
  return c;
}

/** Read and drop messages for `ms`; returns how many CopyData came, and the first non-CopyData message. */
async function consume(c: RawConn, ms: number): Promise<{ copyData: number; other: BackendMessage | null }> {
  const until = Date.now() + ms;
  let copyData = 0;
  while (Date.now() < until) {
    const m = await c.next(until - Date.now() + 50).catch(() => null);
    if (!m) break;
    if (m.type === 'd') copyData++;
    else if (m.type !== 'H') return { copyData, other: m };
  }
  return { copyData, other: null };
}

const socketOf = (c: RawConn) => (c as unknown as { socket: net.Socket }).socket;

describe('COPY TO STDOUT under back-pressure and interruption', () => {
  test('a client that stops reading stops the engine (back-pressure); hanging up ends the statement', async () => {
    const c = await login();
    // the user's engine first (it may still be starting): the control measures rows, not a process start
    await c.simple('SELECT 1');
    c.send(fe.query(ENDLESS_COPY));
    // control: while the client reads, rows flow and the gateway works
    const busyFrom = g.cpuMs();
    const flowing = await consume(c, 3000);
    expect(flowing.other).toBeNull();
    expect(flowing.copyData).toBeGreaterThan(10000);
    expect(g.cpuMs() - busyFrom).toBeGreaterThan(150);
    // The client stops reading: once the socket buffers fill, the gateway waits for them to drain.
    socketOf(c).pause();
    const idle = await eventually(async () => {
      const a = g.cpuMs();
      await sleep(1000);
      return g.cpuMs() - a < 80;
    }, 15000, 0);
    expect(idle).toBe(true);
    // Nothing piles up in the gateway: what was not sent waits in the engine's stream, not in buffers.
    expect(g.rssBytes()).toBeLessThan(1024 ** 3);
    socketOf(c).destroy();
    const other = await connected(g);
    expect(await ping(other)).toBeLessThan(5000);
    await other.end();
  }, 60000);

  test('statement_timeout stops a COPY mid-stream with 57014, and the session goes on', async () => {
    const c = await login();
    await c.simple("SET statement_timeout = '700ms'");
    c.send(fe.query(ENDLESS_COPY));
    const r = await consume(c, 15000);
    expect(r.copyData).toBeGreaterThan(0);
    expect(r.other?.type).toBe('E');
    expect(parseError(r.other!.body)).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    await c.untilReady();
    await c.simple('RESET statement_timeout');
    const after = await c.simple('SELECT 1');
    expect(after.some((m) => m.type === 'D')).toBe(true);
    c.close();
  }, 30000);

  test('CancelRequest stops a COPY mid-stream with 57014', async () => {
    const c = await login();
    c.send(fe.query(ENDLESS_COPY));
    const before = await consume(c, 500);
    expect(before.copyData).toBeGreaterThan(0);
    const k = c;
    const canceller = net.connect(g.port, g.host);
    await new Promise<void>((resolve) => canceller.once('connect', () => resolve()));
    canceller.end(fe.cancel(k.pid, k.secret));
    const r = await consume(c, 15000);
    expect(r.other?.type).toBe('E');
    expect(parseError(r.other!.body)).toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
    await c.untilReady();
    c.close();
  }, 30000);
});
