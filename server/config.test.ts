/**
 * Unknown configuration keys are errors at every level, each with the key it was
 * probably meant to be; every configuration the repository ships still parses.
 * Controls: the same configuration spelled right parses and the setting takes effect.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closest } from './configKeys.js';
import { parseConfig } from './config.js';
import { demoConfig } from './demo.js';

type Json = Record<string, unknown>;
const ROOT = join(import.meta.dirname, '..');
const base = (): Json => ({ usersFile: '/etc/lakegate/users.json', databases: { demo: '/data/demo.duckdb' } });
const error = (input: unknown): string => {
  try {
    parseConfig(input);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('unknown keys, with a did-you-mean', () => {
  test.each([
    ['requireTLS', { requireTLS: true }, 'requireTLS: unknown key (did you mean "requireTls"?)'],
    ['dataGate.maskkey', { dataGate: { maskkey: 'a-key-of-sixteen-chars' } }, 'dataGate.maskkey: unknown key (did you mean "maskKey"?)'],
    ['audit.destinaton', { audit: { destinaton: 'stdout' } }, 'audit.destinaton: unknown key (did you mean "destination"?)'],
    ['audit.http.batchsize', { audit: { http: { url: 'http://sink:9000', batchsize: 5 } } }, 'audit.http.batchsize: unknown key (did you mean "batchSize"?)'],
    ['limits.maxStatmentBytes', { limits: { maxStatmentBytes: 4096 } }, 'limits.maxStatmentBytes: unknown key (did you mean "maxStatementBytes"?)'],
    ['engine.memorylimit', { engine: { memorylimit: '4GiB' } }, 'engine.memorylimit: unknown key (did you mean "memoryLimit"?)'],
    ['throttle.windowMS', { throttle: { windowMS: 1000 } }, 'throttle.windowMS: unknown key (did you mean "windowMs"?)'],
    ['tls.certfile', { tls: { certfile: 'c.pem', keyFile: 'k.pem' } }, 'tls.certfile: unknown key (did you mean "certFile"?)'],
    ['accessControl.ranger.passwd', { accessControl: { ranger: { url: 'http://r:6080', username: 'u', password: 'p', passwd: 'p' } } }, 'accessControl.ranger.passwd: unknown key (did you mean "password"?)'],
    ['a top-level key nothing is close to', { colour: 'blue' }, 'colour: unknown key'],
  ])('%s', (_name, extra, message) => {
    expect(error({ ...base(), ...extra })).toBe(`invalid configuration: ${message}`);
  });

  test('inside a source chosen by its kind: ranger admin, embedded catalog', () => {
    const ranger = { source: { kind: 'admin', url: 'http://r:6080', serviceName: 'lakehouse', username: 'u', password: 'p', tagservice: true } };
    expect(error({ ...base(), ranger })).toBe('invalid configuration: ranger.source.tagservice: unknown key (did you mean "tagService"?)');
    const catalog = {
      database: 'lake',
      source: { kind: 'embedded', sqlitefile: '/d/catalog.db', warehouse: ['/d/w'], policies: { source: { kind: 'local', path: '/p' }, refreshMS: 100 } },
    };
    expect(error({ usersFile: '/u.json', catalog })).toBe(
      'invalid configuration: catalog.source.sqlitefile: unknown key (did you mean "sqliteFile"?); catalog.source.policies.refreshMS: unknown key (did you mean "refreshMs"?)',
    );
  });

  test('controls: spelled right, each parses and takes effect', () => {
    const c = parseConfig({
      ...base(),
      requireTls: true,
      dataGate: { maskKey: 'a-key-of-sixteen-chars' },
      audit: { destination: 'stdout', http: { url: 'http://sink:9000', batchSize: 5 } },
      engine: { memoryLimit: '4GiB' },
    });
    expect([c.requireTls, c.dataGate.maskKey, c.audit.destination, c.audit.http?.batchSize, c.engine.memoryLimit]).toEqual([
      true,
      'a-key-of-sixteen-chars',
      'stdout',
      5,
      '4GiB',
    ]);
  });

  test('free-form maps take any key: settings, databases, audit.http.headers', () => {
    const c = parseConfig({
      usersFile: '/u.json',
      databases: { Any_Name: '/d.duckdb' },
      settings: { statement_timeout: '5min' },
      audit: { http: { url: 'http://sink:9000', headers: { 'X-Anything': 'v' } } },
    });
    expect(Object.keys(c.databases)).toEqual(['Any_Name']);
  });

  test('closest: case folding, at most two edits, nothing on a tie or further away', () => {
    expect(closest('REQUIRETLS', ['requireTls', 'tls'])).toBe('requireTls');
    expect(closest('destinaton', ['destination', 'file'])).toBe('destination');
    expect(closest('prot', ['port', 'host'])).toBe('port');
    expect(closest('hast', ['host', 'hash'])).toBeNull();
    expect(closest('maxConnectionz', ['maxConnections', 'maxConnectionsPerUser'])).toBe('maxConnections');
    expect(closest('colour', ['host', 'port'])).toBeNull();
  });
});

describe("the repository's own configurations parse", () => {
  test('compose/lakegate/config.json', () => {
    const c = parseConfig(JSON.parse(readFileSync(join(ROOT, 'compose', 'lakegate', 'config.json'), 'utf8')));
    expect(c.catalog?.database).toBe('lakehouse');
  });

  test("the demo's configuration (server/demo.ts), as JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-config-'));
    try {
      const demo = await demoConfig({ host: '127.0.0.1', port: 5433, dataDir: dir });
      expect(parseConfig(JSON.parse(JSON.stringify(demo))).catalog?.database).toBe('demo');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("README's examples: the pyiceberg warehouse source, the audit file", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const source = /use `("source": \{ "kind": "embedded".*?\} \} \})`/s.exec(readme)?.[1];
    expect(source).toBeDefined();
    const catalog = JSON.parse(`{ "database": "lake", ${source!.replace(/\s+/g, ' ')} }`) as Json;
    expect(parseConfig({ usersFile: '/u.json', catalog }).catalog?.source.kind).toBe('embedded');
    const audit = /With `"audit": (\{[^`]*\})`/.exec(readme)?.[1];
    expect(parseConfig({ ...base(), audit: JSON.parse(audit!) as Json }).audit.destination).toBe('file');
  });
});
