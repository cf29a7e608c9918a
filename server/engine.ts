/**
 * The DuckDB engine: one instance, a connection per session (plus one per
 * open cursor), hardened before any user statement can run. User SQL reaches
 * it only after sql/ has parsed, checked and rewritten it.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export interface EngineOptions {
  /** DuckDB database files to attach read-only, by PostgreSQL database name. */
  databases: Record<string, string>;
  threads?: number;
  /** DuckDB memory_limit; past it a statement fails with 53200 (or spills to tempDirectory). */
  memoryLimit?: string;
  /** Where DuckDB spills, and how much it may write there. */
  tempDirectory?: string;
  maxTempDirectorySize?: string;
  /** Runs on a privileged connection before the lock-down (catalog emulation, macros). */
  prepare?: (conn: DuckDBConnection) => Promise<void>;
  /** Where LOAD finds extensions (server/extensions.ts provides them). */
  extensionDirectory?: string;
  /** Extensions loaded on the privileged connection before the lock-down. */
  extensions?: readonly string[];
  /**
   * The only directories (or object-store prefixes) the engine may read after
   * the lock-down: the warehouse roots. DuckDB adds its own temp directory.
   */
  allowedDirectories?: readonly string[];
}

/** Settings applied at creation: nothing can be fetched or loaded behind our back. */
const INSTANCE_CONFIG: Record<string, string> = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  // No secret is ever read from (or written to) ~/.duckdb/stored_secrets.
  allow_persistent_secrets: 'false',
};

export class Engine {
  private constructor(private readonly instance: DuckDBInstance) {}

  static async start(opts: EngineOptions): Promise<Engine> {
    const config: Record<string, string> = { ...INSTANCE_CONFIG };
    if (opts.threads) config['threads'] = String(opts.threads);
    if (opts.memoryLimit) config['memory_limit'] = opts.memoryLimit;
    if (opts.tempDirectory) config['temp_directory'] = opts.tempDirectory;
    if (opts.maxTempDirectorySize) config['max_temp_directory_size'] = opts.maxTempDirectorySize;
    if (opts.extensionDirectory) config['extension_directory'] = opts.extensionDirectory;
    const instance = await DuckDBInstance.create(':memory:', config);
    const admin = await instance.connect();
    try {
      for (const name of opts.extensions ?? []) await admin.run(`LOAD ${quoteIdent(name)}`);
      for (const [name, file] of Object.entries(opts.databases)) {
        await admin.run(`ATTACH ${quoteLiteral(file)} AS ${quoteIdent(name)} (READ_ONLY)`);
      }
      // PostgreSQL semantics the engine must share: integer / integer is an
      // integer, and session time zones are applied by the gateway, so the
      // engine computes in UTC. integer_division is a parser option: it must be
      // set before prepare() creates the macros, or their `/` stays DuckDB's
      // float division (lg_div, which every user `/` becomes, was made so).
      await admin.run('SET GLOBAL integer_division = true');
      await admin.run("SET GLOBAL TimeZone = 'UTC'");
      await opts.prepare?.(admin);
      // The lock-down: from here on no statement may touch files, the network
      // or the configuration, whoever sends it.
      const allowed = (opts.allowedDirectories ?? []).map((d) => quoteLiteral(d.endsWith('/') ? d : `${d}/`));
      if (allowed.length > 0) await admin.run(`SET GLOBAL allowed_directories = [${allowed.join(', ')}]`);
      await admin.run('SET GLOBAL enable_external_access = false');
      await admin.run('SET GLOBAL lock_configuration = true');
    } finally {
      admin.closeSync();
    }
    return new Engine(instance);
  }

  connect(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  close(): void {
    this.instance.closeSync();
  }
}

export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
export const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;
