/**
 * The sinks on real sockets and files: batches as configured, a sink that
 * hangs or fails costs dropped events (counted and logged), never a wait for
 * the writer; JSON lines decode one event per line.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { EventFactory, type AuthzAuditEvent } from './event.js';
import { HttpBatchSink, LineSink } from './sinks.js';

const factory = new EventFactory('lakegate', null);
const event = (i: number): AuthzAuditEvent =>
  factory.make({ repo: 'lakehouse', reqUser: `u${i}`, access: 'select', resource: 'sales/orders', resType: '@table', action: 'select', allowed: i % 2 === 0 });

function listen(handler: (req: IncomingMessage, body: string, respond: (status: number) => void) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => handler(req, body, (status) => res.writeHead(status).end()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit` })));
}

function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines };
}

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('events are posted in batches of batchSize, and the rest after flushMs, as JSON arrays with the configured headers', async () => {
  const batches: { events: AuthzAuditEvent[]; auth: string | undefined; type: string | undefined }[] = [];
  const { server, url } = await listen((req, body, respond) => {
    batches.push({ events: JSON.parse(body) as AuthzAuditEvent[], auth: req.headers['authorization'], type: req.headers['content-type'] });
    respond(200);
  });
  const sink = new HttpBatchSink({ url, batchSize: 4, flushMs: 200, maxQueue: 100, timeoutMs: 2000, headers: { authorization: 'Bearer t0k' } }, pino({ level: 'silent' }));
  try {
    const sent = Array.from({ length: 10 }, (_, i) => event(i));
    for (const e of sent) sink.write(e);
    await until(() => batches.reduce((n, b) => n + b.events.length, 0) === 10);
    expect(batches.map((b) => b.events.length)).toEqual([4, 4, 2]);
    expect(batches.flatMap((b) => b.events)).toEqual(sent);
    expect(batches.every((b) => b.auth === 'Bearer t0k' && b.type === 'application/json')).toBe(true);
    expect(sink.dropped).toBe(0);
  } finally {
    await sink.close();
    server.close();
  }
});

test('a sink that hangs: writes return at once, the bounded queue drops the excess, counted and logged', async () => {
  let requests = 0;
  const { server, url } = await listen(() => {
    requests++; // never answers
  });
  const { log, lines } = recordingLog();
  const sink = new HttpBatchSink({ url, batchSize: 10, flushMs: 50, maxQueue: 50, timeoutMs: 300 }, log);
  try {
    // write() is synchronous (returns nothing to wait on), so a query never waits for the sink;
    // a wall-clock bound here would measure the machine's load, not the sink
    const returned = Array.from({ length: 5000 }, (_, i) => sink.write(event(i)) as unknown);
    expect(returned.every((r) => r === undefined)).toBe(true);
    expect(sink.queued).toBeLessThanOrEqual(50);
    // one batch in flight (10) + a full queue (50) kept, everything else dropped
    expect(sink.dropped).toBe(5000 - 60);
    await until(() => requests >= 1);
    expect(lines.some((l) => l['event'] === 'audit-dropped' && typeof l['dropped'] === 'number' && (l['dropped'] as number) > 0)).toBe(true);
  } finally {
    server.closeAllConnections();
    server.close();
    await sink.close();
  }
});

test('a failing sink gets its batch back while there is room, and is not hammered', async () => {
  let calls = 0;
  const got: AuthzAuditEvent[] = [];
  const { server, url } = await listen((_req, body, respond) => {
    calls++;
    if (calls <= 2) return respond(503);
    got.push(...(JSON.parse(body) as AuthzAuditEvent[]));
    respond(204);
  });
  const sink = new HttpBatchSink({ url, batchSize: 5, flushMs: 100, maxQueue: 100, timeoutMs: 1000 }, pino({ level: 'silent' }));
  try {
    const sent = Array.from({ length: 5 }, (_, i) => event(i));
    const t0 = Date.now();
    for (const e of sent) sink.write(e);
    await until(() => got.length === 5);
    expect(got).toEqual(sent);
    expect(sink.dropped).toBe(0);
    // two failures: waits of 100 then 200 ms before the third attempt
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    expect(calls).toBe(3);
  } finally {
    await sink.close();
    server.close();
  }
});

test('JSON lines to a file: one decodable event per line, nothing else on it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-audit-'));
  const file = join(dir, 'sub', 'audit.jsonl');
  const sink = new LineSink({ file }, pino({ level: 'silent' }));
  const sent = [event(1), event(2), event(3)];
  for (const e of sent) sink.write(e);
  await sink.close();
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines.map((l) => JSON.parse(l) as AuthzAuditEvent)).toEqual(sent);
  rmSync(dir, { recursive: true, force: true });
});

test('a line sink that cannot keep up drops whole lines beyond its buffer bound, counted and logged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-audit-'));
  const file = join(dir, 'audit.jsonl');
  const { log, lines } = recordingLog();
  const one = JSON.stringify(event(0)).length + 1;
  const sink = new LineSink({ file }, log, one * 3);
  const sent = Array.from({ length: 50 }, (_, i) => event(i));
  for (const e of sent) sink.write(e); // synchronously, before the file is even open
  await sink.close();
  const written = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as AuthzAuditEvent);
  expect(written.length).toBeGreaterThan(0);
  expect(written.length + sink.dropped).toBe(50);
  expect(sink.dropped).toBeGreaterThan(0);
  expect(written).toEqual(sent.slice(0, written.length));
  expect(lines.some((l) => l['event'] === 'audit-dropped' && l['sink'] === 'file')).toBe(true);
  rmSync(dir, { recursive: true, force: true });
});
