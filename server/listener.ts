/**
 * The TCP listener: accepts connections, runs the protocol on each, keeps the
 * registry CancelRequest uses (process id + secret → session), and wires the
 * protocol's hooks to identity and sessions.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { PgConnection } from '../protocol/connection.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { AuthPlan, ConnectionHooks, StartupInfo } from '../protocol/handler.js';
import { databaseNames, type Config } from './config.js';
import type { Engine } from './engine.js';
import type { Identity, IdentityProvider } from './identity/identity.js';
import type { QueryPlanner } from './query.js';
import { Session } from './session.js';

export interface ServerDeps {
  config: Config;
  engine: Engine;
  planner: QueryPlanner;
  identity: IdentityProvider;
  log: Logger;
}

export interface RunningServer {
  port: number;
  host: string;
  close(): Promise<void>;
}

export async function startServer(deps: ServerDeps): Promise<RunningServer> {
  const { config, log } = deps;
  const sessions = new Map<number, Session>();
  const sockets = new Set<Socket>();
  const tls: SecureContext | null = config.tls
    ? createSecureContext({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) })
    : null;

  const newProcessId = (): number => {
    for (;;) {
      const pid = randomInt(1000, 2 ** 31 - 1);
      if (!sessions.has(pid)) return pid;
    }
  };

  const hooks: ConnectionHooks<Identity> = {
    requireTlsForPassword: config.requireTls,
    async plan(info: StartupInfo): Promise<AuthPlan<Identity>> {
      if (!databaseNames(config).includes(info.database)) {
        throw new PgError(SqlState.invalidCatalogName, `database "${info.database}" does not exist`, { severity: 'FATAL' });
      }
      return deps.identity.plan(info);
    },
    async open(info: StartupInfo, identity: Identity) {
      if (sessions.size >= config.maxConnections) {
        // The login's credential would otherwise keep refreshing for a session that never opened.
        identity.credential?.close();
        throw new PgError(SqlState.tooManyConnections, 'sorry, too many clients already', { severity: 'FATAL' });
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
        onInternalError: (e) => log.error({ err: e, pid: processId }, 'internal error'),
        onEnd: () => sessions.delete(processId),
      });
      sessions.set(processId, session);
      log.info({ event: 'login', user: identity.user, roles: identity.roles, groups: identity.groups, database: info.database, pid: processId, outcome: 'ok' });
      return session;
    },
    cancel(processId: number, secretKey: number) {
      const session = sessions.get(processId);
      // A wrong secret is ignored silently, as PostgreSQL does.
      if (session && session.secretKey === secretKey) session.cancel();
    },
  };

  const server: Server = createServer((socket) => {
    // Sockets still logging in count too: beyond twice the session limit, new ones are dropped at once.
    if (sockets.size >= config.maxConnections * 2) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const conn = new PgConnection(socket, hooks, {
      maxMessageBytes: config.maxMessageBytes,
      authTimeoutMs: config.authTimeoutMs,
      tls,
      onInternalError: (e) => log.error({ err: e }, 'internal error'),
    });
    conn.run().catch((e) => log.error({ err: e }, 'connection failed'));
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
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
