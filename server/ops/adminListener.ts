/**
 * The admin listener: plain HTTP on its own address, apart from the
 * PostgreSQL port. GET /metrics (Prometheus text), /healthz (the process
 * answers), /readyz (200, or 503 with the reasons as JSON). Nothing else; no
 * request body is read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { OpsMetrics } from './metrics.js';
import type { Readiness } from './readiness.js';

export interface AdminListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startAdminListener(at: { host: string; port: number }, metrics: OpsMetrics, readiness: Readiness, log: Logger): Promise<AdminListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    switch (path) {
      case '/healthz':
        send(200, 'application/json', '{"status":"up"}\n');
        return;
      case '/readyz': {
        const s = readiness.state();
        send(s.ready ? 200 : 503, 'application/json', `${JSON.stringify(s.ready ? { ready: true } : { ready: false, reason: s.reasons.join('; '), reasons: s.reasons })}\n`);
        return;
      }
      case '/metrics':
        metrics.render().then(
          (text) => send(200, metrics.contentType, text),
          (e: unknown) => {
            log.error({ event: 'metrics', err: (e as Error).message }, 'metrics could not be collected');
            send(500, 'text/plain; charset=utf-8', 'metrics could not be collected\n');
          },
        );
        return;
      default:
        send(404, 'text/plain; charset=utf-8', 'not found: /metrics, /healthz and /readyz are served here\n');
    }
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  log.info({ event: 'ops', host: addr.address, port: addr.port }, `admin listener on http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port} (/metrics, /healthz, /readyz)`);
  return {
    host: addr.address,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
