/**
 * A real Keycloak for tests. Runs the distribution that scripts/fetch-keycloak.sh unpacked
 * (and built once with `--db=dev-file`) into .tools/keycloak-<version>/, with the Java >= 21
 * recorded in .tools/keycloak-java-home.
 *
 * Every server gets its own Keycloak home in a temp dir: bin/ copied (kc.sh derives the home
 * from its own path), lib/ conf/ themes/ providers/ symlinked to the shared dist, and a
 * private data/ (H2 database, transaction logs, data/import holding the realm fixture). It
 * runs `kc.sh start --optimized` (production mode over plain HTTP, local caches, no
 * re-augmentation) on 127.0.0.1 with a free HTTP port and a free management port, imports
 * tests/fixtures/keycloak/realm-lakegate.json, and is ready when the realm's discovery
 * document answers 200. The issuer is pinned with --hostname, so it is the same whatever
 * Host header a client sends.
 *
 * Missing distribution or Java → the fetch script is run once (it takes a lock); if that
 * fails the promise rejects with its message: tests must fail, never skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupAlive, sleep, tailOf } from './serviceProcess.js';

export const KEYCLOAK_VERSION = '26.7.3';
export const REALM = 'lakegate';
export const CLIENT_ID = 'lakegate';
export const CLIENT_SECRET = 'lakegate-test-secret';
/** accessTokenLifespan in the realm fixture, seconds. */
export const ACCESS_TOKEN_LIFESPAN = 20;
/** ssoSessionIdleTimeout in the realm fixture, seconds (refresh tokens live this long). */
export const SSO_SESSION_IDLE = 600;
export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'lakegate-admin-pw';

/** The realm fixture's users (password = user name); frank is disabled. */
export const USERS = {
  alice: { roles: ['analyst'], groups: ['data-team'], enabled: true },
  bob: { roles: ['analyst', 'engineer'], groups: ['data-team', 'platform'], enabled: true },
  carol: { roles: ['analyst', 'engineer', 'sqe_admin'], groups: ['platform'], enabled: true },
  dave: { roles: [], groups: [], enabled: true },
  erin: { roles: ['analyst'], groups: ['data-team'], enabled: true },
  frank: { roles: [], groups: [], enabled: false },
} as const;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, '.tools', `keycloak-${KEYCLOAK_VERSION}`);
const JAVA_HOME_FILE = join(ROOT, '.tools', 'keycloak-java-home');
const FETCH = join(ROOT, 'scripts', 'fetch-keycloak.sh');
export const REALM_FIXTURE = join(ROOT, 'tests', 'fixtures', 'keycloak', `realm-${REALM}.json`);

export interface KeycloakOptions {
  /** Readiness timeout per start, ms (default 180 000: 2 shared cores). */
  startTimeoutMs?: number;
  /** Realm file to import (default the lakegate fixture). Its realm must be `lakegate`. */
  realmFile?: string;
}

export interface KeycloakServer {
  /** `http://127.0.0.1:<port>/realms/lakegate` — exactly the `iss` of its tokens. */
  issuer: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  managementPort: number;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** Keycloak's stdout+stderr (all starts of this server append to it). */
  logFile: string;
  /** The per-server Keycloak home (data/ holds the H2 database). */
  home: string;
  /** Milliseconds from spawn to discovery answering 200, for the last start. */
  startupMs: number;
  /** True between a successful start and stop(). */
  readonly running: boolean;
  /** A master-realm admin access token (admin-cli password grant with the bootstrap admin). */
  adminToken(): Promise<string>;
  /** The realm user's id (exact user name). */
  userId(name: string): Promise<string>;
  disableUser(name: string): Promise<void>;
  enableUser(name: string): Promise<void>;
  /** Revokes every session of the user (admin `POST /users/{id}/logout`): their refresh tokens stop working. */
  logoutUser(name: string): Promise<void>;
  /** SIGTERM to the whole process group, SIGKILL after 15 s; resolves once every process is gone. Data is kept. */
  stop(): Promise<void>;
  /** Starts again after stop(): same port, same data. */
  start(): Promise<void>;
  /** stop() and remove the temp dir. */
  dispose(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** The dist and a Java >= 21 home; runs scripts/fetch-keycloak.sh if either is missing. */
export function ensureKeycloakDist(): { dist: string; javaHome: string } {
  const ready = (): boolean => existsSync(join(DIST, '.fetched')) && existsSync(join(DIST, 'bin', 'kc.sh')) && existsSync(JAVA_HOME_FILE);
  if (!ready() || process.env.KEYCLOAK_JAVA_HOME) {
    const r = spawnSync('bash', [FETCH], { cwd: ROOT, encoding: 'utf8', env: process.env, timeout: 900_000 });
    if (r.status !== 0) {
      throw new Error(
        `scripts/fetch-keycloak.sh failed (${r.status ?? r.signal ?? r.error}); Keycloak ${KEYCLOAK_VERSION} with a Java >= 21 is required ` +
          `for these tests and they cannot run without it:\n${(r.stderr || '').trim()}`,
      );
    }
  }
  if (!ready()) throw new Error(`Keycloak ${KEYCLOAK_VERSION} not found in ${DIST} after scripts/fetch-keycloak.sh`);
  const javaHome = readFileSync(JAVA_HOME_FILE, 'utf8').trim();
  if (!existsSync(join(javaHome, 'bin', 'java'))) {
    throw new Error(`${JAVA_HOME_FILE} names ${javaHome}, which has no bin/java; rerun scripts/fetch-keycloak.sh`);
  }
  return { dist: DIST, javaHome };
}

async function formPost(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(30_000),
  });
}

export async function startKeycloak(opts: KeycloakOptions = {}): Promise<KeycloakServer> {
  const { dist, javaHome } = ensureKeycloakDist();
  const timeoutMs = opts.startTimeoutMs ?? 180_000;
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-kc-'));
  const home = join(dir, 'home');
  const logFile = join(dir, 'keycloak.log');
  try {
    mkdirSync(join(home, 'data', 'import'), { recursive: true });
    cpSync(join(dist, 'bin'), join(home, 'bin'), { recursive: true });
    for (const entry of ['lib', 'conf', 'themes', 'providers', 'version.txt']) {
      if (existsSync(join(dist, entry))) symlinkSync(join(dist, entry), join(home, entry));
    }
    copyFileSync(opts.realmFile ?? REALM_FIXTURE, join(home, 'data', 'import', `realm-${REALM}.json`));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  let port = 0;
  let managementPort = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let running = false;
  let removed = false;

  const killSync = (): void => {
    if (child?.pid !== undefined && groupAlive(child.pid)) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  // A test run that dies before afterAll must not leave a JVM behind.
  const onExit = (): void => {
    killSync();
    if (!removed) rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);

  const spawnOnce = async (): Promise<void> => {
    const url = `http://127.0.0.1:${port}`;
    const args = [
      'start',
      '--optimized',
      '--http-enabled=true',
      '--http-host=127.0.0.1',
      `--http-port=${port}`,
      `--http-management-port=${managementPort}`,
      `--hostname=${url}`,
      '--hostname-strict=false',
      '--cache=local',
      '--import-realm',
      '--log-console-color=false',
    ];
    const fd = openSync(logFile, 'a');
    const t0 = Date.now();
    let exitInfo: string | undefined;
    try {
      child = spawn(join(home, 'bin', 'kc.sh'), args, {
        cwd: dir,
        detached: true, // own process group: stop() signals kc.sh and its JVM together
        stdio: ['ignore', fd, fd],
        env: {
          ...process.env,
          JAVA_HOME: javaHome,
          JAVA: join(javaHome, 'bin', 'java'),
          JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx512m',
          KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN_USER,
          KC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
          KC_RUN_IN_CONTAINER: 'false',
        },
      });
    } finally {
      closeSync(fd);
    }
    const proc = child;
    exited = new Promise((r) => {
      proc.once('exit', (code, signal) => {
        exitInfo = `exited with ${code ?? signal}`;
        r();
      });
      proc.once('error', (err) => {
        exitInfo = `could not be spawned: ${err.message}`;
        r();
      });
    });
    const discovery = `${url}/realms/${REALM}/.well-known/openid-configuration`;
    for (;;) {
      if (exitInfo) break;
      try {
        const res = await fetch(discovery, { signal: AbortSignal.timeout(5_000) });
        if (res.status === 200) {
          await res.arrayBuffer();
          server.startupMs = Date.now() - t0;
          running = true;
          await warmUp();
          return;
        }
        await res.arrayBuffer();
      } catch {
        // not listening yet
      }
      if (Date.now() - t0 > timeoutMs) break;
      await sleep(500);
    }
    const why = exitInfo ? `Keycloak ${exitInfo}` : `Keycloak did not answer ${discovery} with 200 within ${timeoutMs} ms`;
    await stopProcess();
    throw new Error(`${why} (port ${port}, management port ${managementPort}, log ${logFile}):\n${tailOf(logFile, 60)}`);
  };

  // A fresh JVM answers its first password grant slowly (class loading, JIT, the first
  // password hash): on a loaded machine past the 5 s a gateway allows a login. One grant
  // for the bootstrap admin warms that path, so tests see the server as clients will.
  const warmUp = async (): Promise<void> => {
    try {
      await server.adminToken();
    } catch {
      // a real failure shows in the test that needs Keycloak
    }
  };

  const stopProcess = async (): Promise<void> => {
    running = false;
    const proc = child;
    if (!proc?.pid) return;
    const pgid = proc.pid;
    if (groupAlive(pgid)) {
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
    const deadline = Date.now() + 15_000;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
    if (groupAlive(pgid)) {
      process.kill(-pgid, 'SIGKILL');
      while (groupAlive(pgid)) await sleep(50);
    }
    await exited;
    child = undefined;
  };

  const admin = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const token = await server.adminToken();
    const res = await fetch(`${server.url}/admin/realms/${REALM}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`Keycloak admin ${method} ${path} → ${res.status}: ${await res.text()}`);
    return res;
  };
  const setEnabled = async (name: string, enabled: boolean): Promise<void> => {
    const id = await server.userId(name);
    const rep = (await (await admin('GET', `/users/${id}`)).json()) as Record<string, unknown>;
    await (await admin('PUT', `/users/${id}`, { ...rep, enabled })).arrayBuffer();
  };

  const server: KeycloakServer = {
    issuer: '',
    url: '',
    port: 0,
    managementPort: 0,
    tokenEndpoint: '',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    logFile,
    home,
    startupMs: 0,
    get running() {
      return running;
    },
    async adminToken() {
      const res = await formPost(`${server.url}/realms/master/protocol/openid-connect/token`, {
        grant_type: 'password',
        client_id: 'admin-cli',
        username: ADMIN_USER,
        password: ADMIN_PASSWORD,
      });
      const body = (await res.json()) as { access_token?: string };
      if (res.status !== 200 || !body.access_token) throw new Error(`Keycloak admin token: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async userId(name) {
      const res = await admin('GET', `/users?username=${encodeURIComponent(name)}&exact=true`);
      const users = (await res.json()) as { id: string; username: string }[];
      const user = users.find((u) => u.username === name);
      if (!user) throw new Error(`Keycloak: no user ${name} in realm ${REALM}`);
      return user.id;
    },
    disableUser: (name) => setEnabled(name, false),
    enableUser: (name) => setEnabled(name, true),
    async logoutUser(name) {
      const id = await server.userId(name);
      await (await admin('POST', `/users/${id}/logout`)).arrayBuffer();
    },
    stop: stopProcess,
    async start() {
      if (removed) throw new Error('Keycloak server was disposed');
      if (running) return;
      await spawnOnce();
    },
    async dispose() {
      await stopProcess();
      removed = true;
      process.off('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };

  // The free ports can be taken between probing and binding (parallel workers): retry.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    do managementPort = await freePort();
    while (managementPort === port);
    server.port = port;
    server.managementPort = managementPort;
    server.url = `http://127.0.0.1:${port}`;
    server.issuer = `${server.url}/realms/${REALM}`;
    server.tokenEndpoint = `${server.issuer}/protocol/openid-connect/token`;
    try {
      await spawnOnce();
      return server;
    } catch (err) {
      const portClash = /address already in use|Port .* already/i.test(String(err));
      if (!portClash || attempt >= 3) {
        await server.dispose();
        throw err;
      }
    }
  }
}

/**
 * Jest helper: starts Keycloak in beforeAll (timeout 240 s) and disposes of it in afterAll.
 * Use the returned getter inside tests. One server per suite: Jest gives every test file
 * its own module registry and globals, so sharing one JVM across suites of a worker would
 * need a process outside Jest's sandbox — not worth it while one suite uses it.
 */
export function keycloakForSuite(opts: KeycloakOptions = {}): () => KeycloakServer {
  let kc: KeycloakServer | undefined;
  beforeAll(async () => {
    kc = await startKeycloak(opts);
  }, (opts.startTimeoutMs ?? 180_000) + 60_000);
  afterAll(async () => {
    await kc?.dispose();
  }, 60_000);
  return () => {
    if (!kc) throw new Error('Keycloak did not start (see the beforeAll error)');
    return kc;
  };
}

/** An access token for a realm user by the password grant on the lakegate client (password = user name in the fixture). */
export async function userAccessToken(kc: Pick<KeycloakServer, 'tokenEndpoint' | 'clientId' | 'clientSecret'>, username: string, password = username): Promise<string> {
  const res = await formPost(kc.tokenEndpoint, { grant_type: 'password', client_id: kc.clientId, client_secret: kc.clientSecret, username, password });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`Keycloak password grant for ${username}: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A gateway's `keycloak` configuration for this test realm (the client's secret, groups from the token, no token roles). */
export function gatewayKeycloakConfig(kc: Pick<KeycloakServer, 'issuer' | 'clientId' | 'clientSecret'>, timeoutMs: number) {
  return {
    issuer: kc.issuer,
    clientId: kc.clientId,
    clientSecret: kc.clientSecret,
    scope: 'openid',
    usernameClaim: 'preferred_username',
    tokenRoles: false,
    groupsClaim: 'groups',
    timeoutMs,
    refreshMarginMs: 30_000,
  };
}
