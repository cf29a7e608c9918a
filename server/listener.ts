/**
 * The TCP listener: accepts connections, runs the protocol on each, keeps the
 * registry CancelRequest uses (process id + secret → session), and wires the
 * protocol's hooks to identity and sessions.
 */
import type { AdminRoom } from '../policy/admin/room.js';
import { createServer, type Server, type Socket } from 'node:net';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import * as be from '../protocol/backend.js';
import { PgConnection } from '../protocol/connection.js';
import { PgError, SqlState } from '../protocol/errors.js';
import { MessageWriter } from '../protocol/writer.js';
import type { AuthPlan, ConnectionHooks, StartupInfo } from '../protocol/handler.js';
import { databaseNames, type Config } from './config.js';
import type { Engine } from './engine/pool.js';
import type { WriteDeps } from './write/sessionWrites.js';
import type { Identity, IdentityProvider } from './identity/identity.js';
import type { Auditor } from './audit/auditor.js';
import type { QueryPlanner } from './queryPlan.js';
import { HeavyLane } from './heavyLane.js';
import { Session } from './session.js';
import type { Backends } from './sessionFunctions.js';
import type { StatementParser } from './statementParser.js';
import { UserStatementSlots } from './statementSlots.js';
import type { Ops } from './ops/ops.js';

/** Statements longer than this are planned in the heavy lane (server/heavyLane.ts). */
export const LARGE_STATEMENT_CHARS = 8192;

export interface ServerDeps {
  config: Config;
  engine: Engine;
  planner: QueryPlanner;
  parser: StatementParser;
  identity: IdentityProvider;
  log: Logger;
  /** The audit trail (logins here; statements through the sessions). */
  audit?: Auditor;
  /** Access-control statements (server/admin.ts); absent: refused. */
  admin?: AdminRoom | null;
  /** Writes through the Iceberg catalog; null: the database is read-only. */
  writes?: WriteDeps | null;
  /** Metrics and the statement log (server/ops/): each session is watched through it. */
  ops?: Ops | null;
}

export interface RunningServer {
  port: number;
  host: string;
  /**
   * Stop accepting, stop every running statement, and end every connection
   * with FATAL 57P01 as PostgreSQL's fast shutdown does; connections still
   * open after config.shutdownTimeoutMs are cut.
   */
  close(): Promise<void>;
}

/** PostgreSQL's refusal when no connection slot is left, written before the client has said anything. */
function refuseConnection(socket: Socket): void {
  const w = new MessageWriter(256);
  be.errorResponse(w, new PgError(SqlState.tooManyConnections, 'sorry, too many clients already', { severity: 'FATAL' }));
  socket.end(w.take());
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** PostgreSQL 16's words for the reserved slots, naming the roles that may use them. */
function reservedSlotsMessage(adminRoles: readonly string[]): string {
  const roles = adminRoles.map((r) => `"${r}"`);
  return roles.length === 1
    ? `remaining connection slots are reserved for roles with privileges of the ${roles[0]} role`
    : `remaining connection slots are reserved for roles with privileges of one of the roles ${roles.join(', ')}`;
}

/**
 * Why a login may not open a session now, in PostgreSQL's words (53300), or null. Checked in
 * PostgreSQL's order: the role's own limit, then the reserved slots, then the server's limit.
 */
function connectionRefusal(config: Config, sessions: Iterable<Session>, identity: Identity): PgError | null {
  const admin = identity.roles.some((r) => config.accessControl.adminRoles.includes(r));
  let total = 0;
  let mine = 0;
  for (const s of sessions) {
    total++;
    if (s.user === identity.user) mine++;
  }
  const refuse = (message: string) => new PgError(SqlState.tooManyConnections, message, { severity: 'FATAL' });
  if (!admin && mine >= config.maxConnectionsPerUser) return refuse(`too many connections for role "${identity.user}"`);
  if (total >= config.maxConnections) return refuse('sorry, too many clients already');
  if (!admin && total >= config.maxConnections - config.reservedConnections) return refuse(reservedSlotsMessage(config.accessControl.adminRoles));
  return null;
}

export async function startServer(deps: ServerDeps): Promise<RunningServer> {
  const { config, log } = deps;
  const sessions = new Map<number, Session>();
  const statementSlots = new UserStatementSlots(config.maxStatementsPerUser);
  const sockets = new Set<Socket>();
  const heavyLane = new HeavyLane();
  const connections = new Map<PgConnection<Identity>, Promise<void>>();
  /** Connections per client address that have not finished logging in. */
  const pendingLogins = new Map<string, number>();
  const loginDone = (address: string): void => {
    const n = (pendingLogins.get(address) ?? 1) - 1;
    if (n <= 0) pendingLogins.delete(address);
    else pendingLogins.set(address, n);
  };
  const tls: SecureContext | null = config.tls
    ? createSecureContext({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) })
    : null;

  const newProcessId = (): number => {
    for (;;) {
      const pid = randomInt(1000, 2 ** 31 - 1);
      if (!sessions.has(pid)) return pid;
    }
  };

  const backends: Backends = {
    find: (pid) => {
      const s = sessions.get(pid);
      return s && { user: s.user, cancel: () => s.cancel(), terminate: () => s.terminate() };
    },
    activity: (user) => [...sessions.values()].filter((s) => s.user === user).map((s) => s.activityRow()),
  };
  const hooks: ConnectionHooks<Identity> = {
    requireTlsForPassword: config.requireTls,
    async plan(info: StartupInfo): Promise<AuthPlan<Identity>> {
      if (config.requireTls && !info.tls) {
        // The protocol refuses the password next; no password has been asked for.
        deps.audit?.login(
          { user: info.user, clientIp: info.remoteAddress, clientType: info.params['application_name'] ?? null },
          { database: info.database, allowed: false, reason: 'password authentication requires an encrypted connection' },
        );
      }
      // The database is checked only once the password is proven, as PostgreSQL does: a stranger learns nothing of it.
      return deps.identity.plan(info);
    },
    async open(connected: StartupInfo, identity: Identity) {
      const info = withDefaultDatabase(connected, databaseNames(config));
      const who = (pid: number | null) => ({ user: identity.user, clientIp: info.remoteAddress, sessionId: pid, clientType: info.params['application_name'] ?? null });
      if (!databaseNames(config).includes(info.database)) {
        identity.credential?.close();
        deps.audit?.login(who(null), { database: info.database, allowed: false, reason: 'the database does not exist' });
        throw new PgError(SqlState.invalidCatalogName, `database "${info.database}" does not exist`, { severity: 'FATAL' });
      }
      const refusal = connectionRefusal(config, sessions.values(), identity);
      if (refusal) {
        // The login's credential would otherwise keep refreshing for a session that never opened.
        identity.credential?.close();
        log.info({ event: 'login', user: identity.user, database: info.database, outcome: 'too-many-connections', reason: refusal.message });
        deps.audit?.login(who(null), { database: info.database, allowed: false, reason: refusal.message });
        throw refusal;
      }
      const processId = newProcessId();
      const session = new Session({
        engine: deps.engine,
        planner: deps.planner,
        identity,
        info,
        processId,
        secretKey: randomBytes(4).readInt32BE(0),
        maxOpenCursors: config.maxOpenCursorsPerSession,
        parser: deps.parser,
        heavyLane,
        largeStatementChars: LARGE_STATEMENT_CHARS,
        limits: config.limits,
        onInternalError: (e, ref) => log.warn({ err: e, pid: processId, user: identity.user, ref }, 'statement failed'),
        admin: deps.admin ?? null,
        onEnd: () => sessions.delete(processId),
        ...(deps.audit ? { audit: deps.audit } : {}),
        backends,
        statementSlots: statementSlots.forUser(identity.user),
        // a writable database's transactions are read-write unless the configuration says otherwise
        settingDefaults: deps.writes ? { default_transaction_read_only: 'off', ...config.settings } : config.settings,
        writes: deps.writes ?? null,
      });
      sessions.set(processId, session);
      log.info({ event: 'login', user: identity.user, roles: identity.roles, groups: identity.groups, database: info.database, pid: processId, outcome: 'ok' });
      deps.audit?.login(who(processId), { database: info.database, allowed: true });
      return session;
    },
    cancel(processId: number, secretKey: number) {
      const session = sessions.get(processId);
      // A wrong secret is ignored silently, as PostgreSQL does.
      if (session && session.secretKey === secretKey) session.cancel();
    },
  };

  let closing = false;
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    // Sockets still logging in count too: beyond twice the session limit, new ones are dropped at once.
    if (closing || sockets.size >= config.maxConnections * 2) {
      socket.destroy();
      return;
    }
    // One address cannot hold every login slot with idle sockets.
    const address = socket.remoteAddress ?? '';
    if ((pendingLogins.get(address) ?? 0) >= config.limits.maxPendingLoginsPerAddress) {
      log.warn({ event: 'login', remote: address, outcome: 'too-many-pending' }, 'connection refused');
      refuseConnection(socket);
      return;
    }
    pendingLogins.set(address, (pendingLogins.get(address) ?? 0) + 1);
    let pending = true;
    const settleLogin = () => {
      if (pending) loginDone(address);
      pending = false;
    };
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      settleLogin();
    });
    const conn = new PgConnection(
      socket,
      {
        ...hooks,
        open: async (info, identity) => {
          const session = await hooks.open(info, identity);
          (session as Session).terminator = () => conn.terminate();
          settleLogin();
          return deps.ops ? deps.ops.session(session, identity.user) : session;
        },
      },
      {
        maxMessageBytes: config.maxMessageBytes,
        maxStatementBytes: config.limits.maxStatementBytes,
        authTimeoutMs: config.authTimeoutMs,
        tls,
        onInternalError: (e) => log.error({ err: e }, 'internal error'),
      },
    );
    const running = conn
      .run()
      .catch((e) => log.error({ err: e }, 'connection failed'))
      .finally(() => connections.delete(conn));
    connections.set(conn, running);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    port,
    host: config.host,
    close: async () => {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of connections.keys()) conn.terminate();
      const ended = Promise.all(connections.values());
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, config.shutdownTimeoutMs)));
      await Promise.race([ended, late]);
      clearTimeout(timer);
      for (const conn of connections.keys()) conn.cut();
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 250))]);
      for (const s of sockets) s.destroy();
      await stopped;
    },
  };
}

/**
 * Tools that connect to database "postgres" unless told otherwise (DBeaver, pgAdmin) reach the default
 * database, the first one configured, as if they had named it (current_database() is its name); a
 * database actually called "postgres" is itself. The user's rights are the same whichever name is used.
 */
export function withDefaultDatabase(info: StartupInfo, databases: readonly string[]): StartupInfo {
  if (info.database !== 'postgres' || databases.includes('postgres') || databases.length === 0) return info;
  return { ...info, database: databases[0]! };
}
