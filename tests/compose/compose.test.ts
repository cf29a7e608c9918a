/**
 * compose/ cannot run here (no Docker engine), so everything about it that can be
 * checked without one is: the compose file against the compose-spec JSON schema (the
 * copy check-jsonschema ships), every mounted file present, the shell scripts'
 * syntax, the names that must agree across services (issuer, client secret, users,
 * principals, Ranger service names, storage keys), the Ranger policies against
 * lakegate's model, and what those policies decide under Polaris's Ranger authorizer
 * (lakegate's engine with the polaris service def: Ranger 2.9.0's, and 2.8.0's, which
 * has no implied grants).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizePolaris, polarisPath, type PolarisPath } from '../../catalog/polaris/authorization.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parsePolicy, parseRangerRoles, parseServicePolicies, type ServiceDef } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { parseConfig } from '../../server/config.js';
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
