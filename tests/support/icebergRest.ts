/**
 * Apache Iceberg's own REST catalog server (org.apache.iceberg.rest.RESTCatalogServer,
 * the server behind the iceberg-rest-fixture image) as a real Java process for tests.
 *
 * Each server has its own SQLite catalog file (Iceberg's JdbcCatalog) and warehouse: a
 * local directory, or an `s3://bucket/prefix` location on an S3-compatible store
 * (S3FileIO with the given endpoint and keys). It listens on a free port (it binds every
 * interface; tests use 127.0.0.1) and is ready when `GET /v1/config` answers 200. It
 * checks no tokens: put tests/fixtures/polaris in front of it for that.
 *
 * The classpath comes from scripts/fetch-iceberg-rest.sh (run here once if missing; a
 * failure rejects: tests fail, never skip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT } from './lakegate.js';
import { answers, startServiceProcess, type ServiceProcess } from './serviceProcess.js';

export const ICEBERG_REST_VERSION = '1.11.0';
export const ICEBERG_REST_HOME = join(REPO_ROOT, '.tools', `iceberg-rest-${ICEBERG_REST_VERSION}`);
const FETCH = join(REPO_ROOT, 'scripts', 'fetch-iceberg-rest.sh');

/** Credentials and endpoint of an S3-compatible store (tests/support/s3.ts's S3Server fits). */
export interface S3Access {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface IcebergRestOptions {
  /** Local warehouse directory (created if missing). Ignored when `warehouse` is given. */
  warehouseDir?: string;
  /** Warehouse location, e.g. `s3://bucket/warehouse` (needs `s3`). */
  warehouse?: string;
  s3?: S3Access;
  /** SQLite catalog file (default: a fresh file in a temp dir). Reusing one keeps the catalog across restarts. */
  catalogFile?: string;
  startTimeoutMs?: number;
}

export interface IcebergRest {
  /** `http://127.0.0.1:<port>`: the REST root (`/v1/config`, `/v1/namespaces`, …). */
  url: string;
  port: number;
  /** The warehouse location tables are created under. */
  warehouse: string;
  catalogFile: string;
  logFile: string;
  startupMs: number;
  /**
   * Kills the server and removes its temp dir (log, and the default catalog file and
   * warehouse). A catalog file or warehouse directory passed in stays, so a server
   * started again on them finds its tables.
   */
  stop(): Promise<void>;
}

/** The directory holding the server's jars; runs the fetch script if it is missing. */
export function ensureIcebergRestClasspath(): string {
  const lib = join(ICEBERG_REST_HOME, 'lib');
  const ready = (): boolean => existsSync(join(ICEBERG_REST_HOME, '.fetched')) && existsSync(lib);
  if (!ready()) {
    const r = spawnSync('bash', [FETCH], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 900_000 });
    if (r.status !== 0) {
      throw new Error(
        `scripts/fetch-iceberg-rest.sh failed (${r.status ?? r.signal ?? r.error}); the Iceberg ${ICEBERG_REST_VERSION} REST server ` +
          `is required for these tests and they cannot run without it:\n${(r.stderr || '').trim()}`,
      );
    }
  }
  if (!ready()) throw new Error(`Iceberg REST classpath not found in ${lib} after scripts/fetch-iceberg-rest.sh`);
  return lib;
}

function javaBinary(): string {
  const home = process.env['JAVA_HOME'];
  return home && existsSync(join(home, 'bin', 'java')) ? join(home, 'bin', 'java') : 'java';
}

export async function startIcebergRest(opts: IcebergRestOptions = {}): Promise<IcebergRest> {
  const lib = ensureIcebergRestClasspath();
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-iceberg-rest-'));
  const catalogFile = opts.catalogFile ?? join(dir, 'catalog.db');
  const logFile = join(dir, 'server.log');
  let warehouse: string;
  if (opts.warehouse) {
    if (opts.warehouse.startsWith('s3://') && !opts.s3) throw new Error(`startIcebergRest: warehouse ${opts.warehouse} needs s3 access`);
    warehouse = opts.warehouse;
  } else {
    warehouse = opts.warehouseDir ?? join(dir, 'warehouse');
    mkdirSync(warehouse, { recursive: true });
  }
  // RESTCatalogServer reads CATALOG_* variables as catalog properties: `__` → `-`, `_` → `.`.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CATALOG_URI: `jdbc:sqlite:${catalogFile}`,
    CATALOG_WAREHOUSE: warehouse,
    CATALOG_JDBC_SCHEMA__VERSION: 'V1',
  };
  if (opts.s3) {
    Object.assign(env, {
      CATALOG_IO__IMPL: 'org.apache.iceberg.aws.s3.S3FileIO',
      CATALOG_S3_ENDPOINT: opts.s3.endpoint,
      CATALOG_S3_PATH__STYLE__ACCESS: 'true',
      CATALOG_S3_ACCESS__KEY__ID: opts.s3.accessKeyId,
      CATALOG_S3_SECRET__ACCESS__KEY: opts.s3.secretAccessKey,
      CATALOG_CLIENT_REGION: opts.s3.region,
      AWS_REGION: opts.s3.region,
    });
  }
  let proc: ServiceProcess | undefined;
  let port = 0;
  try {
    // A free port can be taken between probing and binding (parallel workers): retry.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        proc = await startServiceProcess({
          name: 'Iceberg REST server',
          command: javaBinary(),
          args: ['-Xms32m', '-Xmx384m', '-XX:+UseSerialGC', '-cp', join(lib, '*'), 'org.apache.iceberg.rest.RESTCatalogServer'],
          env: { ...env, CATALOG_REST_PORT: String(port) },
          cwd: dir,
          logFile,
          ready: () => answers(`http://127.0.0.1:${port}/v1/config`),
          timeoutMs: opts.startTimeoutMs ?? 90_000,
        });
        break;
      } catch (err) {
        if (attempt >= 3 || !/Address already in use|BindException/.test(readLog(logFile))) throw err;
      }
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const p = proc;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    warehouse,
    catalogFile,
    logFile,
    startupMs: p.startupMs,
    stop: async () => {
      await p.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
