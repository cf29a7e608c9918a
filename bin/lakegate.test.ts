/**
 * The `lakegate` command as an operator runs it (dist/bin/lakegate.js, built by
 * `npx tsc -p tsconfig.json`): every subcommand answers --help; check-config refuses
 * misspelled keys with a did-you-mean, passes every configuration the repository ships
 * and names each gate's roles file; hash-password takes the password from stdin, never
 * from the command line (the verifier checked with Node's crypto).
 */
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoConfig } from '../server/demo.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'bin', 'lakegate.js');

function lakegate(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: input ?? '', encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lakegate-bin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, json: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(json));
  return f;
}

describe('--help', () => {
  test.each([
    ['demo', 'lakegate demo [--port 5433]'],
    ['serve', 'lakegate serve --config FILE'],
    ['check-config', 'lakegate check-config FILE'],
    ['extensions', 'lakegate extensions [--dir DIR]'],
    ['user', 'lakegate user add --users-file FILE NAME'],
    ['hash-password', 'lakegate hash-password'],
    ['version', 'lakegate version'],
  ])('lakegate %s --help', (command, usage) => {
    const r = lakegate([command, '--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.startsWith(`usage: ${usage}`)).toBe(true);
    expect(lakegate([command, '-h']).stdout).toBe(r.stdout);
  });

  test('a wrong option is a usage error naming the command\'s usage; an unknown command lists them all', () => {
    const r = lakegate(['demo', '--prot', '5433']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("lakegate: Unknown option '--prot'");
    expect(r.stderr).toContain('usage: lakegate demo [--port 5433]');
    const u = lakegate(['serv']);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('lakegate: unknown command "serv"');
    expect(u.stderr).toContain('  lakegate user passwd --users-file FILE NAME');
  });
});

describe('check-config', () => {
  const base = { usersFile: '/etc/lakegate/users.json', databases: { demo: '/data/demo.duckdb' } };

  test.each([
    ['requireTLS', { requireTLS: true }, 'requireTLS: unknown key (did you mean "requireTls"?)'],
    ['dataGate.maskkey', { dataGate: { maskkey: 'a-key-of-sixteen-chars' } }, 'dataGate.maskkey: unknown key (did you mean "maskKey"?)'],
    ['audit.destinaton', { audit: { destinaton: 'stdout' } }, 'audit.destinaton: unknown key (did you mean "destination"?)'],
  ])('%s is refused, naming the key meant', (name, extra, message) => {
    const r = lakegate(['check-config', configFile(`${name}.json`, { ...base, ...extra })]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `lakegate: invalid configuration: ${message}\n`]);
  });

  test('control: the same settings spelled right', () => {
    const f = configFile('right.json', { ...base, requireTls: true, dataGate: { maskKey: 'a-key-of-sixteen-chars' }, audit: { destination: 'stdout' } });
    const r = lakegate(['check-config', f]);
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([0, 'configuration ok']);
  });

  test("compose/lakegate/config.json passes and names Ranger Admin's roles of the lakehouse service", () => {
    const r = lakegate(['check-config', join(ROOT, 'compose', 'lakegate', 'config.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('data gate and login roles (ranger):\n  policies: Ranger Admin http://ranger-admin:6080, service lakehouse\n  roles: Ranger Admin http://ranger-admin:6080, roles of service lakehouse\n');
  });

  test("the demo's configuration passes and names each gate's roles file", async () => {
    const dataDir = join(dir, 'demo-data');
    const f = configFile('demo.json', await demoConfig({ host: '127.0.0.1', port: 5433, dataDir }));
    const r = lakegate(['check-config', f]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'configuration ok',
        'data gate and login roles (ranger):',
        `  policies: ${join(ROOT, 'demo', 'ranger', 'lakehouse.json')}`,
        `  roles: ${join(ROOT, 'demo', 'ranger', 'lakehouse_roles.json')}`,
        'catalog gate (catalog.source.policies):',
        `  policies: ${join(dataDir, 'policies', 'polaris', 'polaris.json')}`,
        `  roles: ${join(dataDir, 'policies', 'polaris', 'polaris_roles.json')}`,
        '',
      ].join('\n'),
    );
  }, 60_000);

  test('a single policy file is named as carrying no roles', () => {
    const policies = configFile('policies.json', { serviceName: 'lakehouse', policies: [] });
    const r = lakegate(['check-config', configFile('single.json', { ...base, ranger: { source: { kind: 'local', path: policies } } })]);
    expect(r.stdout).toContain(`  policies: ${policies}\n  roles: none: a single policy file carries no roles`);
  });
});

describe('serve', () => {
  test('a first policy bundle its service def refuses stops the start, naming the policy; the unmodified bundle loads', () => {
    const demo = JSON.parse(readFileSync(join(ROOT, 'demo', 'ranger', 'lakehouse.json'), 'utf8')) as { policies: { resources: object }[] };
    demo.policies[0]!.resources = { ...demo.policies[0]!.resources, schema: { values: ['sales'] } };
    const bundle = configFile('bad-bundle.json', demo);
    const config = configFile('serve-bad.json', { usersFile: join(ROOT, 'demo', 'users.json'), databases: { demo: join(dir, 'none.duckdb') }, port: 0, ranger: { source: { kind: 'local', path: bundle } } });
    const r = lakegate(['serve', '--config', config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'lakegate: cannot start without a valid first policy set: policy bundle of service "lakehouse" refused: policy 1 "everyone reads sales; the catalog gate decides who may load": resource type "schema" not in service def hive\n',
    );
    // Control: the unmodified bundle loads (the gateway then stops at the database file this config leaves missing).
    const good = configFile('good-bundle.json', JSON.parse(readFileSync(join(ROOT, 'demo', 'ranger', 'lakehouse.json'), 'utf8')));
    const c = lakegate(['serve', '--config', configFile('serve-good.json', { usersFile: join(ROOT, 'demo', 'users.json'), databases: { demo: join(dir, 'none.duckdb') }, port: 0, ranger: { source: { kind: 'local', path: good } } })]);
    expect(c.stderr).toContain('"from":"never-loaded","to":"fresh"');
    expect(c.stderr).not.toContain('cannot start without a valid first policy set');
    expect(c.stderr).toContain('none.duckdb');
  });
});

describe('hash-password', () => {
  /** RFC 5802 / PostgreSQL's verifier computed here: SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>. */
  function verifies(verifier: string, password: string): boolean {
    const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(verifier.trim());
    if (!m) return false;
    const salted = pbkdf2Sync(password, Buffer.from(m[2]!, 'base64'), Number(m[1]), 32, 'sha256');
    const storedKey = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest('base64');
    const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
    return storedKey === m[3] && serverKey === m[4];
  }

  test('reads the password from stdin and prints its verifier alone on stdout', () => {
    const r = lakegate(['hash-password'], 'correct horse\n');
    expect(r.code).toBe(0);
    expect(verifies(r.stdout, 'correct horse')).toBe(true);
    expect(verifies(r.stdout, 'correct horsf')).toBe(false);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  test('refuses the password on the command line, printing no verifier', () => {
    const r = lakegate(['hash-password', 'correct horse']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('hash-password does not take the password on the command line');
  });
});
