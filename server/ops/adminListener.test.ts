/** The admin listener's answers, readiness's reasons, the listen address and timed calls. */
import pino from 'pino';
import { startAdminListener, type AdminListener } from './adminListener.js';
import { parseListen } from './config.js';
import { timedCalls } from './instrument.js';
import { OpsMetrics } from './metrics.js';
import { Readiness } from './readiness.js';

let listener: AdminListener;
let loaded = false;
const readiness = new Readiness();
readiness.require(() => (loaded ? null : 'the data gate policies are not loaded (never-loaded)'));
const metrics = new OpsMetrics({ processMetrics: false });

beforeAll(async () => {
  listener = await startAdminListener({ host: '127.0.0.1', port: 0 }, metrics, readiness, pino({ level: 'silent' }));
});
afterAll(() => listener.close());

const get = async (p: string, method = 'GET') => {
  const r = await fetch(`http://127.0.0.1:${listener.port}${p}`, { method });
  return { status: r.status, body: await r.text() };
};

test('/readyz: 503 with each reason while starting, then while a condition is unmet; 200 once all are met', async () => {
  readiness.starting('starting the engine pool');
  expect(await get('/readyz')).toEqual({ status: 503, body: '{"ready":false,"reason":"starting the engine pool","reasons":["starting the engine pool"]}\n' });
  readiness.started();
  expect(JSON.parse((await get('/readyz')).body)).toEqual({ ready: false, reason: 'the data gate policies are not loaded (never-loaded)', reasons: ['the data gate policies are not loaded (never-loaded)'] });
  loaded = true;
  expect(await get('/readyz')).toEqual({ status: 200, body: '{"ready":true}\n' });
  expect(await get('/healthz')).toEqual({ status: 200, body: '{"status":"up"}\n' });
});

test('/metrics is the registry; other paths 404, other methods 405', async () => {
  metrics.login(false);
  expect((await get('/metrics')).body).toContain('lakegate_logins_total{outcome="refused"} 1');
  expect((await get('/metrics?x=1')).status).toBe(200);
  expect((await get('/nope')).status).toBe(404);
  expect((await get('/metrics', 'DELETE')).status).toBe(405);
});

test('a listener that cannot bind is an error, not a silent gateway without one', async () => {
  await expect(startAdminListener({ host: '127.0.0.1', port: listener.port }, metrics, readiness, pino({ level: 'silent' }))).rejects.toMatchObject({ code: 'EADDRINUSE' });
});

test('shutting down is not ready', async () => {
  const r = new Readiness();
  r.started();
  expect(r.state()).toEqual({ ready: true, reasons: [] });
  r.shuttingDown();
  expect(r.state()).toEqual({ ready: false, reasons: ['shutting down'] });
});

test('parseListen: host:port, [v6]:port, a bare port on loopback; nothing else', () => {
  expect(parseListen('127.0.0.1:9187')).toEqual({ host: '127.0.0.1', port: 9187 });
  expect(parseListen('0.0.0.0:0')).toEqual({ host: '0.0.0.0', port: 0 });
  expect(parseListen('[::1]:9187')).toEqual({ host: '::1', port: 9187 });
  expect(parseListen('9187')).toEqual({ host: '127.0.0.1', port: 9187 });
  expect(parseListen('localhost:70000')).toBeNull();
  expect(parseListen('http://x:1')).toBeNull();
  expect(parseListen('x:')).toBeNull();
});

test('timedCalls reports each awaited call by method name, settled or failed; synchronous helpers pass through', async () => {
  class Client {
    #secret = 7;
    async load(n: number) {
      return n + this.#secret;
    }
    async broken() {
      throw new Error('down');
    }
    name() {
      return 'c';
    }
  }
  const seen: [string, boolean][] = [];
  const c = timedCalls(new Client(), (method, seconds, ok) => {
    expect(seconds).toBeGreaterThanOrEqual(0);
    seen.push([method, ok]);
  });
  expect(await c.load(1)).toBe(8);
  await expect(c.broken()).rejects.toThrow('down');
  expect(c.name()).toBe('c');
  expect(seen).toEqual([
    ['load', true],
    ['broken', false],
  ]);
});
