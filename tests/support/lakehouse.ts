/**
 * The whole test lakehouse in one call, for suites that need a REST-mode catalog to talk
 * to: Iceberg's REST server with the test tables (catalog `lake`, local disk), optionally
 * a second one on SeaweedFS S3 (catalog `lake_s3`: lake.customers and lake.emea.orders),
 * and the Polaris front over both, trusting the given OIDC issuer (a real Keycloak:
 * tests/support/keycloak.ts).
 *
 * Tables are written straight to the REST servers (a privileged, test-only path) unless
 * `writerToken` is given: then they are written through the front with that token, so
 * the front must let its principal create and write (see tests/fixtures/polaris).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OidcOptions } from '../fixtures/polaris/auth.js';
import { startPolarisFront, type PolarisFront } from '../fixtures/polaris/server.js';
import { startIcebergRest, type IcebergRest } from './icebergRest.js';
import { writeTestTables, type CatalogRef, type TablesManifest } from './icebergTables.js';
import { startS3, type S3Server } from './s3.js';

export interface LakehouseOptions {
  oidc: OidcOptions;
  principals: string[];
  /** Ranger policies on the polaris service (tests/fixtures/polaris/policies.ts builds them). */
  policies?: unknown[];
  roles?: unknown;
  /** Also a warehouse on SeaweedFS, catalog `lake_s3`, with vended credentials. */
  s3?: boolean;
  /** Write the tables through the front with this token instead of straight to the servers. */
  writerToken?: () => Promise<string>;
  /** Only these tables in catalog `lake` (keys as in TablesManifest; default all). */
  only?: string[];
}

export interface Lakehouse {
  dir: string;
  rest: IcebergRest;
  restS3: IcebergRest | null;
  s3: S3Server | null;
  front: PolarisFront;
  /** What was written in catalog `lake`. */
  manifest: TablesManifest;
  /** What was written in catalog `lake_s3` (null without s3). */
  s3Manifest: TablesManifest | null;
  /** How a pyiceberg / Iceberg Java reference reads catalog `lake` as `token`'s principal, through the front. */
  asUser(catalog: 'lake' | 'lake_s3', token: string): CatalogRef;
  /** The privileged way around the front (reference scans that must not depend on grants). */
  direct(catalog: 'lake' | 'lake_s3'): CatalogRef;
  stop(): Promise<void>;
}

export const S3_TABLES = ['lake.customers', 'lake.emea.orders'];

export async function startLakehouse(opts: LakehouseOptions): Promise<Lakehouse> {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-lakehouse-'));
  const started: { stop(): Promise<void> }[] = [];
  try {
    const s3 = opts.s3 ? await startS3({ dir: join(dir, 's3'), buckets: ['lake'] }) : null;
    if (s3) started.push(s3);
    const [rest, restS3] = await Promise.all([
      startIcebergRest({ warehouseDir: join(dir, 'wh') }),
      s3 ? startIcebergRest({ warehouse: 's3://lake/wh', s3 }) : Promise.resolve(null),
    ]);
    started.push(rest);
    if (restS3) started.push(restS3);
    const front = await startPolarisFront({
      oidc: opts.oidc,
      catalogs: {
        lake: { backendUrl: rest.url, properties: { 'default-base-location': rest.warehouse } },
        ...(restS3 && s3 ? { lake_s3: { backendUrl: restS3.url, storage: s3 } } : {}),
      },
      principals: opts.principals,
      policies: opts.policies ?? [],
      roles: opts.roles,
    });
    started.push({ stop: () => front.close() });

    const asUser = (catalog: 'lake' | 'lake_s3', token: string): CatalogRef => ({ kind: 'rest', uri: front.url, warehouse: catalog, token });
    const direct = (catalog: 'lake' | 'lake_s3'): CatalogRef =>
      catalog === 'lake' ? { kind: 'rest', uri: rest.url } : { kind: 'rest', uri: restS3!.url, s3: s3! };
    const writer = opts.writerToken ? await opts.writerToken() : null;
    const target = (catalog: 'lake' | 'lake_s3'): CatalogRef => (writer ? asUser(catalog, writer) : direct(catalog));
    const [manifest, s3Manifest] = await Promise.all([
      writeTestTables(target('lake'), opts.only ? { only: opts.only } : {}),
      restS3 ? writeTestTables(target('lake_s3'), { only: S3_TABLES }) : Promise.resolve(null),
    ]);
    return {
      dir,
      rest,
      restS3,
      s3,
      front,
      manifest,
      s3Manifest,
      asUser,
      direct,
      async stop() {
        for (const s of started.reverse()) await s.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Jest: the lakehouse for one suite (beforeAll / afterAll); options are read in beforeAll (after Keycloak is up). */
export function lakehouseForSuite(opts: () => LakehouseOptions, timeoutMs = 600_000): () => Lakehouse {
  let lh: Lakehouse | undefined;
  beforeAll(async () => {
    lh = await startLakehouse(opts());
  }, timeoutMs);
  afterAll(async () => {
    await lh?.stop();
  }, 120_000);
  return () => {
    if (!lh) throw new Error('the lakehouse did not start (see the beforeAll error)');
    return lh;
  };
}
