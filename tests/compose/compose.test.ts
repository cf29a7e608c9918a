/**
 * compose/ cannot run here (no Docker engine), so everything about it that can be
 * checked without one is: the compose file against the compose-spec JSON schema (the
 * copy check-jsonschema ships), every mounted file present, the shell scripts'
 * syntax, the names that must agree across services (issuer, client secret, users,
 * principals, Ranger service names, storage keys), the Ranger policies against
 * lakegate's model, and what those policies decide under Polaris's Ranger authorizer
 * (lakegate's engine with the polaris service def: Ranger 2.9.0's, and 2.8.0's, which
 * has no implied grants). And what issue 22 added: the certs job run with openssl and its
 * certificate verified with Node's crypto against lakegate's `tls`; the data-load job run
 * against a local SQL catalog, its rows compared with the demo's seed (server/demo.ts);
 * the healthcheck against `ops.listen`; Polaris's JDBC store shared by its bootstrap job.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { polarisPath, type PolarisPath } from '../../catalog/polaris/authorization.js';
import { authorizePolaris } from '../../policy/polaris/rangerAuthorizer.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parsePolicy, parseRangerRoles, parseServicePolicies, type ServiceDef } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { parseConfig } from '../../server/config.js';
import { parseListen } from '../../server/ops/config.js';
import { describeWithFixtures, readFixture } from '../conformance/harness.js';
import { POLARIS_SERVICE_DEF } from '../fixtures/polaris/serviceDef.js';
import { icebergPython } from '../support/icebergTables.js';
import { REPO_ROOT } from '../support/lakegate.js';

const COMPOSE = join(REPO_ROOT, 'compose');
const read = (rel: string): string => readFileSync(join(COMPOSE, rel), 'utf8');
const readJson = (rel: string): any => JSON.parse(read(rel));
const jsonFiles = (rel: string): any[] =>
  readdirSync(join(COMPOSE, rel))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJson(`${rel}/${f}`));

function checkJsonschema(file: string): { status: number | null; output: string } {
  const bin = join(icebergPython(), '..', 'check-jsonschema');
  const r = spawnSync(bin, ['--builtin-schema', 'vendor.compose-spec', file], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

function loadYaml(file: string): any {
  const r = spawnSync(icebergPython(), ['-c', 'import sys, json; from ruamel.yaml import YAML; print(json.dumps(YAML(typ="safe").load(open(sys.argv[1]))))', file], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`YAML load of ${file} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** `${VAR:-default}` → default (what compose uses with no .env). */
const withDefaults = (s: string): string => s.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1').replace(/\$\$/g, '$');

const compose = loadYaml(join(COMPOSE, 'docker-compose.yml'));
const env = (service: string): Record<string, string> =>
  Object.fromEntries(Object.entries(compose.services[service].environment ?? {}).map(([k, v]) => [k, withDefaults(String(v))]));
const realm = readJson('keycloak/realm-lakehouse.json');
const config = readJson('lakegate/config.json');
const realmUsers: string[] = realm.users.map((u: { username: string }) => u.username).sort();

describe('compose file', () => {
  test('is valid against the compose-spec JSON schema; a broken copy is not (control)', () => {
    const ok = checkJsonschema(join(COMPOSE, 'docker-compose.yml'));
    expect(ok.output).toContain('ok -- validation done');
    expect(ok.status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-compose-'));
    try {
      const broken = join(dir, 'docker-compose.yml');
      writeFileSync(broken, read('docker-compose.yml').replace('    image: quay.io/keycloak', '    imagee: quay.io/keycloak'));
      const bad = checkJsonschema(broken);
      expect(bad.status).not.toBe(0);
      expect(bad.output).toMatch(/imagee/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('runs the five parts, and every file it mounts or builds from exists', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['keycloak', 'polaris', 'ranger-admin', 'seaweedfs', 'lakegate']));
    for (const [name, svc] of Object.entries<any>(compose.services)) {
      for (const v of svc.volumes ?? []) {
        const source = String(v).split(':')[0]!;
        if (source.startsWith('.')) expect(`${name}: ${source} ${existsSync(join(COMPOSE, source))}`).toBe(`${name}: ${source} true`);
      }
    }
    expect(existsSync(join(COMPOSE, compose.services.lakegate.build.context, compose.services.lakegate.build.dockerfile))).toBe(true);
    for (const script of ['ranger/bootstrap.sh', 'polaris/bootstrap.sh']) {
      const r = spawnSync('sh', ['-n', join(COMPOSE, script)], { encoding: 'utf8' });
      expect(`${script}: ${r.status} ${r.stderr}`).toBe(`${script}: 0 `);
    }
  });
});

describe('names every service must agree on', () => {
  test('one issuer and audience for Keycloak, Polaris and lakegate; the client lakegate logs in with', () => {
    const issuer = `${env('keycloak')['KC_HOSTNAME']}/realms/${realm.realm}`;
    expect(config.keycloak.issuer).toBe(issuer);
    expect(env('polaris')['quarkus.oidc.auth-server-url']).toBe(issuer);
    expect(env('polaris')['quarkus.oidc.token.issuer']).toBe(issuer);
    const client = realm.clients.find((c: { clientId: string }) => c.clientId === config.keycloak.clientId);
    expect(client).toMatchObject({ directAccessGrantsEnabled: true, publicClient: false, secret: config.keycloak.clientSecret });
    const audience = client.protocolMappers.find((m: { protocolMapper: string }) => m.protocolMapper === 'oidc-audience-mapper').config['included.client.audience'];
    expect(config.keycloak.audience).toEqual([audience]);
    expect(env('polaris')['quarkus.oidc.token.audience']).toBe(audience);
    expect(env('polaris')['polaris.oidc.principal-mapper.name-claim-path']).toBe('preferred_username');
  });

  test('every Keycloak user is a Polaris principal and a Ranger user; Ranger roles mirror the realm roles', () => {
    const principals = read('polaris/principals.txt')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .sort();
    expect(principals).toEqual(realmUsers);
    const rangerUsers = /for u in ([\w ]+); do/.exec(read('ranger/bootstrap.sh'))![1]!.split(' ').sort();
    expect(rangerUsers).toEqual(['root', ...realmUsers].sort());
    for (const role of jsonFiles('ranger/roles')) {
      const inRealm = realm.users.filter((u: { realmRoles: string[] }) => u.realmRoles.includes(role.name)).map((u: { username: string }) => u.username);
      expect([role.name, role.users.map((u: { name: string }) => u.name).sort()]).toEqual([role.name, inRealm.sort()]);
    }
  });

  test('Polaris uses the Ranger service the bootstrap creates; lakegate reads the data-gate service; storage keys match the store', () => {
    const bootstrap = read('ranger/bootstrap.sh');
    expect(env('polaris')['polaris.authorization.type']).toBe('ranger');
    const polarisService = env('polaris')['polaris.authorization.ranger.service-name'];
    expect(bootstrap).toContain(`"name":"${polarisService}","type":"polaris"`);
    expect(bootstrap).toContain(`"name":"${config.ranger.source.serviceName}","type":"hive"`);
    expect(env('polaris')['polaris.authorization.ranger.authz.default.policy.rest.client.password']).toBe(env('ranger-setup')['RANGER_PASSWORD']);
    expect(config.ranger.source.password).toBe(env('ranger-setup')['RANGER_PASSWORD']);
    const identity = readJson('seaweedfs/s3.json').identities[0].credentials[0];
    expect(config.catalog.storage).toMatchObject({ accessKeyId: identity.accessKey, secretAccessKey: identity.secretKey, endpoint: env('polaris-setup')['S3_ENDPOINT'] });
    expect([env('polaris')['AWS_ACCESS_KEY_ID'], env('polaris')['AWS_SECRET_ACCESS_KEY']]).toEqual([identity.accessKey, identity.secretKey]);
    expect(new URL(config.catalog.source.uri).host).toBe(`polaris:${compose.services.polaris.ports[0].split(':').pop()}`);
  });

  test("lakegate's configuration parses (what lakegate check-config checks)", () => {
    expect(() => parseConfig(config)).not.toThrow();
  });
});

describe('Ranger policies', () => {
  const polarisPolicies = jsonFiles('ranger/policies/polaris');
  const lakehousePolicies = jsonFiles('ranger/policies/lakehouse');
  const roles = parseRangerRoles({ rangerRoles: jsonFiles('ranger/roles') }, 'compose roles');

  test('parse with lakegate\'s Ranger model and name their service', () => {
    for (const p of polarisPolicies) expect([p.name, parsePolicy(p, p.name).service]).toEqual([p.name, 'polaris']);
    for (const p of lakehousePolicies) expect([p.name, parsePolicy(p, p.name).service]).toEqual([p.name, 'lakehouse']);
  });

  const decide = (def: ServiceDef) => {
    const engine = new PolicyEngine(parseServicePolicies({ serviceName: 'polaris', serviceDef: def, policies: polarisPolicies }, 'compose polaris'), {
      roles: new RoleStore(roles),
    });
    return (user: string, operation: string, target: PolarisPath) => authorizePolaris(engine, { principal: { name: user }, operation, targets: [target] }).allowed;
  };
  const R = 'POLARIS';
  const cat = polarisPath.catalog(R, 'lakehouse');
  const sales = polarisPath.namespace(R, 'lakehouse', ['sales']);
  const finance = polarisPath.namespace(R, 'lakehouse', ['finance']);
  const orders = polarisPath.tableLike(R, 'lakehouse', ['sales'], 'orders');
  const payroll = polarisPath.tableLike(R, 'lakehouse', ['finance'], 'payroll');
  const analytics = polarisPath.namespace(R, 'lakehouse', ['analytics']);
  const model = polarisPath.tableLike(R, 'lakehouse', ['analytics'], 'dim_customers');
  const expectations: [string, string, PolarisPath, boolean][] = [
    ['root', 'CREATE_CATALOG', polarisPath.root(R), true],
    ['root', 'CREATE_PRINCIPAL', polarisPath.root(R), true],
    ['root', 'CREATE_NAMESPACE', cat, true],
    ['carol', 'CREATE_NAMESPACE', cat, true],
    ['carol', 'CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION', finance, true],
    ['carol', 'LOAD_TABLE_WITH_WRITE_DELEGATION', payroll, true],
    ['alice', 'LIST_NAMESPACES', cat, true],
    ['alice', 'LOAD_NAMESPACE_METADATA', sales, true],
    ['alice', 'LIST_TABLES', sales, true],
    ['alice', 'LOAD_TABLE', orders, true],
    ['alice', 'LOAD_TABLE_WITH_READ_DELEGATION', orders, true],
    ['alice', 'LOAD_TABLE_WITH_WRITE_DELEGATION', orders, false],
    ['alice', 'LOAD_TABLE', payroll, false],
    ['alice', 'LOAD_NAMESPACE_METADATA', finance, false],
    ['alice', 'CREATE_TABLE_DIRECT', sales, false],
    ['alice', 'CREATE_CATALOG', polarisPath.root(R), false],
    ['bob', 'LOAD_TABLE_WITH_WRITE_DELEGATION', orders, true],
    ['bob', 'ADD_TABLE_SNAPSHOT', orders, true],
    ['bob', 'LOAD_TABLE', payroll, false],
    ['dave', 'LIST_NAMESPACES', cat, false],
    ['dave', 'LOAD_TABLE', orders, false],
    // analytics: engineers create and write there, analysts read it, dave nothing (as in the demo)
    ['bob', 'CREATE_TABLE_DIRECT', analytics, true],
    ['bob', 'CREATE_VIEW', analytics, true],
    ['bob', 'ADD_TABLE_SNAPSHOT', model, true],
    ['bob', 'ADD_TABLE_SCHEMA', model, true],
    ['bob', 'DROP_TABLE_WITH_PURGE', model, true],
    ['bob', 'REPLACE_VIEW', model, true],
    ['bob', 'DROP_VIEW', model, true],
    ['bob', 'CREATE_NAMESPACE', cat, false],
    ['alice', 'LIST_TABLES', analytics, true],
    ['alice', 'LOAD_TABLE', model, true],
    ['alice', 'LOAD_VIEW', model, true],
    ['alice', 'CREATE_TABLE_DIRECT', analytics, false],
    ['alice', 'ADD_TABLE_SNAPSHOT', model, false],
    ['alice', 'DROP_TABLE_WITH_PURGE', model, false],
    ['dave', 'LOAD_NAMESPACE_METADATA', analytics, false],
    ['dave', 'LOAD_TABLE', model, false],
  ];
  const run = (def: ServiceDef) => {
    const allowed = decide(def);
    const got = expectations.map(([u, op, t]) => `${u} ${op} ${t.names.join('/')} → ${allowed(u, op, t)}`);
    expect(got).toEqual(expectations.map(([u, op, t, want]) => `${u} ${op} ${t.names.join('/')} → ${want}`));
  };

  test('decide as the README says under Ranger 2.9.0\'s polaris def', () => run(POLARIS_SERVICE_DEF));

  describeWithFixtures('under Ranger 2.8.0', () => {
    test('the same, without implied grants (every access type is written out)', () => {
      const def = parseServicePolicies({ serviceDef: readFixture('ranger-servicedef-polaris-ranger-2.8.0.json') }, '2.8.0 def').serviceDef;
      expect(def.accessTypes.every((a) => a.impliedGrants.length === 0)).toBe(true);
      run(def);
    });
  });
});

/** Named volumes a service mounts: target → volume name. */
const namedVolumes = (service: string): Record<string, string> =>
  Object.fromEntries(
    (compose.services[service].volumes ?? [])
      .map((v: string) => String(v).split(':'))
      .filter(([source]: string[]) => !source!.startsWith('.') && !source!.startsWith('/'))
      .map(([source, target]: string[]) => [target, source]),
  );
const dependsOn = (service: string, on: string): string | undefined => compose.services[service].depends_on?.[on]?.condition;

describe('the stack closes the gaps of issue 22', () => {
  test('the new jobs exist, their scripts parse, every named volume is declared', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['certs', 'polaris-db', 'polaris-bootstrap', 'data-load']));
    for (const script of ['certs/make-certs.sh', 'polaris/bootstrap-realm.sh']) {
      const r = spawnSync('sh', ['-n', join(COMPOSE, script)], { encoding: 'utf8' });
      expect(`${script}: ${r.status} ${r.stderr}`).toBe(`${script}: 0 `);
    }
    const r = spawnSync(icebergPython(), ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])', join(COMPOSE, 'data-load/load_orders.py')], { encoding: 'utf8' });
    expect(`${r.status} ${r.stderr}`).toBe('0 ');
    for (const name of Object.keys(compose.services)) {
      for (const volume of Object.values(namedVolumes(name))) expect(`${name}: ${volume} ${volume in (compose.volumes ?? {})}`).toBe(`${name}: ${volume} true`);
    }
    // lakegate starts once its certificate is issued and the demo table is in the catalog.
    expect([dependsOn('lakegate', 'certs'), dependsOn('lakegate', 'data-load'), dependsOn('data-load', 'polaris-setup')]).toEqual([
      'service_completed_successfully',
      'service_completed_successfully',
      'service_completed_successfully',
    ]);
  });

  test('TLS: the certs job issues the files lakegate is configured with, valid for its names; the CA key is never in lakegate\'s mount', () => {
    expect(config.requireTls).toBe(true);
    const lakegateMount = Object.entries(namedVolumes('lakegate')).find(([, v]) => v === 'certs');
    expect(lakegateMount).toBeDefined();
    const [lakegateTarget] = lakegateMount!;
    const certsEnv = env('certs');
    expect(namedVolumes('certs')[certsEnv['CERTS_DIR']!]).toBe('certs');
    const caVolume = namedVolumes('certs')[certsEnv['CA_DIR']!]!;
    expect(caVolume).not.toBe('certs');
    expect(Object.values(namedVolumes('lakegate'))).not.toContain(caVolume);
    for (const f of [config.tls.certFile, config.tls.keyFile]) expect(f.startsWith(`${lakegateTarget}/`)).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'lakegate-certs-'));
    try {
      const out = join(dir, 'certs');
      const ca = join(dir, 'ca');
      const owner = `${process.getuid!()}:${process.getgid!()}`;
      const run = () => spawnSync('sh', [join(COMPOSE, 'certs/make-certs.sh')], { encoding: 'utf8', env: { ...process.env, CERTS_DIR: out, CA_DIR: ca, CERTS_OWNER: owner } });
      const first = run();
      expect(`${first.status} ${first.stdout}`).toMatch(/^0 certs: issued/);
      const inMount = (f: string) => join(out, f.slice(lakegateTarget.length + 1));
      const cert = new X509Certificate(readFileSync(inMount(config.tls.certFile)));
      const caCert = new X509Certificate(readFileSync(join(out, 'ca.crt')));
      expect(cert.verify(caCert.publicKey)).toBe(true);
      expect(cert.checkIssued(caCert)).toBe(true);
      expect([cert.checkHost('lakegate'), cert.checkHost('localhost'), cert.checkIP('127.0.0.1')]).toEqual(['lakegate', 'localhost', '127.0.0.1']);
      expect(cert.checkHost('keycloak')).toBeUndefined(); // control: not a certificate for any name
      // the key is the certificate's, and a TLS server accepts the pair
      expect(() => createSecureContext({ cert: readFileSync(inMount(config.tls.certFile)), key: readFileSync(inMount(config.tls.keyFile)) })).not.toThrow();
      expect(statSync(inMount(config.tls.keyFile)).mode & 0o077).toBe(0);
      expect(readdirSync(out).sort()).toEqual(['ca.crt', 'lakegate.crt', 'lakegate.key']);
      expect(readdirSync(ca)).toEqual(['ca.key']);
      // a restart keeps the certificate clients already trust
      const again = run();
      expect(`${again.status} ${again.stdout}`).toMatch(/^0 certs: kept/);
      expect(new X509Certificate(readFileSync(inMount(config.tls.certFile))).fingerprint256).toBe(cert.fingerprint256);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('MASK_HASH has a key (a *-change-me default, as the other secrets)', () => {
    const parsed = parseConfig(config);
    expect(parsed.dataGate.maskKey).toMatch(/-change-me$/);
    expect(parsed.dataGate.maskKey!.length).toBeGreaterThanOrEqual(16);
  });

  test('GRANT writes to the Ranger Admin and polaris service Polaris reads, with the account ranger-setup uses', () => {
    const parsed = parseConfig(config);
    const polarisEnv = env('polaris');
    expect(parsed.accessControl.ranger).toMatchObject({
      url: polarisEnv['polaris.authorization.ranger.authz.default.policy.rest.url'],
      serviceName: polarisEnv['polaris.authorization.ranger.service-name'],
      username: env('ranger-setup')['RANGER_USER'],
      password: env('ranger-setup')['RANGER_PASSWORD'],
    });
    expect(parsed.accessControl.ranger!.url).toBe(env('ranger-setup')['RANGER_URL']);
    // the data gate's policies are written on the same Ranger Admin (projectWrites), to the service lakegate reads
    expect(parsed.accessControl.projectWrites).toBe(true);
    expect(config.ranger.source.url).toBe(parsed.accessControl.ranger!.url);
  });

  test('the healthcheck asks /readyz on the admin listener lakegate is configured with, published on loopback only', () => {
    const listen = parseListen(parseConfig(config).ops.listen!)!;
    expect(listen.host).toBe('0.0.0.0');
    const test = compose.services.lakegate.healthcheck.test.join(' ');
    expect(test).toContain(`http://127.0.0.1:${listen.port}/readyz`);
    expect(test).toContain('r.ok?0:1');
    const published = compose.services.lakegate.ports.map((p: string) => withDefaults(p)).filter((p: string) => p.endsWith(`:${listen.port}`));
    expect(published).toEqual([`127.0.0.1:${listen.port}:${listen.port}`]);
  });

  test('the configuration is strict: an unknown key is refused (control for the parse above)', () => {
    expect(() => parseConfig({ ...config, requireTLS: true })).toThrow(/requireTLS/);
  });

  test('Polaris keeps its catalog in PostgreSQL: one JDBC store for the bootstrap job and the server, root\'s secret shared with the setup jobs', () => {
    const db = env('polaris-db');
    for (const service of ['polaris', 'polaris-bootstrap']) {
      const e = env(service);
      expect([service, e['POLARIS_PERSISTENCE_TYPE']]).toEqual([service, 'relational-jdbc']);
      expect([service, e['QUARKUS_DATASOURCE_JDBC_URL']]).toEqual([service, `jdbc:postgresql://polaris-db:5432/${db['POSTGRES_DB']}`]);
      expect([service, e['QUARKUS_DATASOURCE_USERNAME'], e['QUARKUS_DATASOURCE_PASSWORD']]).toEqual([service, db['POSTGRES_USER'], db['POSTGRES_PASSWORD']]);
    }
    expect(dependsOn('polaris', 'polaris-bootstrap')).toBe('service_completed_successfully');
    expect(dependsOn('polaris-bootstrap', 'polaris-db')).toBe('service_healthy');
    expect(compose.services['polaris-db'].volumes.some((v: string) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    const secret = env('polaris-bootstrap')['POLARIS_ROOT_SECRET'];
    expect([env('polaris-setup')['POLARIS_ROOT_SECRET'], env('data-load')['POLARIS_ROOT_SECRET']]).toEqual([secret, secret]);
    expect(read('polaris/bootstrap-realm.sh')).toContain('--credential="POLARIS,root,$POLARIS_ROOT_SECRET"');
  });

  test("data-load writes the demo's sales.orders rows, as root, into the catalog lakegate serves; a second run adds nothing", () => {
    const e = env('data-load');
    expect(e['POLARIS_URI']).toBe(config.catalog.source.uri);
    expect(e['POLARIS_CATALOG']).toBe(config.catalog.source.warehouse);
    expect([e['S3_ENDPOINT'], e['S3_ACCESS_KEY'], e['S3_SECRET_KEY']]).toEqual([config.catalog.storage.endpoint, config.catalog.storage.accessKeyId, config.catalog.storage.secretAccessKey]);
    // the demo's rows, read from server/demo.ts's seed, not from the loader
    const demo = readFileSync(join(REPO_ROOT, 'server/demo.ts'), 'utf8');
    const values = /rows: `VALUES (.*)`/.exec(demo)![1]!;
    const expected = [...values.matchAll(/\((\d+), '([^']*)', CAST\(([\d.]+) AS DECIMAL\(10,2\)\), '([^']*)'\)/g)].map((m) => ({ id: Number(m[1]), ssn: m[2], amount: m[3], region: m[4] }));
    expect(expected).toHaveLength(2);

    // The loader against a local SQL catalog in place of Polaris's REST one; what it asks the REST catalog for is recorded.
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-dataload-'));
    try {
      const harness = `
import json, runpy, sys
import pyiceberg.catalog
from pyiceberg.catalog.sql import SqlCatalog
wh, script = sys.argv[1], sys.argv[2]
local = lambda: SqlCatalog("local", uri=f"sqlite:///{wh}/catalog.db", warehouse=f"file://{wh}")
asked = []
def load_catalog(name, **props):
    asked.append({k: v for k, v in props.items() if not k.startswith("s3.")} | {"s3": sorted(k for k in props if k.startswith("s3."))})
    return local()
pyiceberg.catalog.load_catalog = load_catalog
for _ in range(2):
    runpy.run_path(script, run_name="__main__")
rows = [{**r, "amount": str(r["amount"])} for r in local().load_table("sales.orders").scan().to_arrow().sort_by("id").to_pylist()]
print(json.dumps({"asked": asked, "rows": rows}))
`;
      const r = spawnSync(icebergPython(), ['-c', harness, dir, join(COMPOSE, 'data-load/load_orders.py')], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, ...e, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect(`${r.status} ${r.stderr}`).toBe('0 ');
      const lines = r.stdout.trim().split('\n');
      expect(lines.slice(0, 2)).toEqual(['data-load: sales.orders created with 2 rows', 'data-load: sales.orders exists; left as it is']);
      const got = JSON.parse(lines[2]!);
      expect(got.rows).toEqual(expected);
      expect(got.asked[0]).toEqual({
        type: 'rest',
        uri: config.catalog.source.uri,
        warehouse: config.catalog.source.warehouse,
        credential: `root:${env('polaris-setup')['POLARIS_ROOT_SECRET']}`,
        scope: 'PRINCIPAL_ROLE:ALL',
        s3: ['s3.access-key-id', 's3.endpoint', 's3.path-style-access', 's3.region', 's3.secret-access-key'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
