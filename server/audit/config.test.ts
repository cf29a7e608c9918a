import { parseConfig } from '../config.js';

const base = { usersFile: 'users.json', databases: { demo: 'demo.duckdb' } };

test('the audit trail is off unless configured', () => {
  expect(parseConfig(base).audit).toEqual({ destination: 'off' });
});

test('a file destination needs a file; the HTTP sink gets its defaults', () => {
  expect(() => parseConfig({ ...base, audit: { destination: 'file' } })).toThrow(/audit\.file: required when destination is "file"/);
  const c = parseConfig({ ...base, audit: { destination: 'file', file: '/var/log/a.jsonl', http: { url: 'http://127.0.0.1:9000/audit' } } });
  expect(c.audit).toEqual({
    destination: 'file',
    file: '/var/log/a.jsonl',
    http: { url: 'http://127.0.0.1:9000/audit', batchSize: 100, flushMs: 1000, maxQueue: 10_000, timeoutMs: 5000 },
  });
});

test.each([
  [{ destination: 'syslog' }, /audit\.destination/],
  [{ http: { url: 'not a url' } }, /audit\.http\.url/],
  [{ http: { url: 'http://127.0.0.1/a', batchSize: 0 } }, /audit\.http\.batchSize/],
  [{ http: { url: 'http://127.0.0.1/a', maxQueue: 0 } }, /audit\.http\.maxQueue/],
  [{ http: { url: 'http://127.0.0.1/a', headers: { authorization: 5 } } }, /audit\.http\.headers/],
])('refused: %j', (audit, message) => {
  expect(() => parseConfig({ ...base, audit })).toThrow(message);
});
