/**
 * The loopback catalog endpoint: an Iceberg REST catalog served by lakegate
 * itself on 127.0.0.1 (a port of its own), that the engine's DuckDB attaches
 * to per session without credentials. Each session gets a secret path,
 * `http://127.0.0.1:PORT/<secret>/`, and every request under it is made to the
 * real catalog as that session's caller (session.ts); the user's token never
 * enters DuckDB.
 *
 * An unknown (or closed) secret is 404 with an empty body; a body over the
 * bound is 413; error bodies are Iceberg's IcebergErrorResponse with the
 * catalog's message and never the endpoint's address, which DuckDB would
 * repeat in its error text.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogError, type Caller, type WritableCatalog } from '../iceberg/api.js';
import { parseIcebergJson, stringifyIcebergJsonCompact } from '../iceberg/json.js';
import { route } from './routes.js';
import { LoopbackSession, type LoopbackEvent, type LoopbackSessionOptions } from './session.js';

export interface LoopbackCatalogOptions {
  catalog: WritableCatalog;
  /** Largest request body accepted (bytes); default 8 MiB. */
  maxBodyBytes?: number;
  /** Told unexpected errors (the client gets a 500 without detail). */
  onError?: (e: unknown) => void;
}

/** What a session holds: its URL for ATTACH, its events, and close(). */
export interface OpenedSession {
  /** `http://127.0.0.1:PORT/<secret>`: ATTACH … (TYPE iceberg, ENDPOINT '<url>', AUTHORIZATION_TYPE 'none') */
  url: string;
  /** The events since the last call (tables created, committed, dropped; commits refused). */
  takeEvents(): LoopbackEvent[];
  /** Ends the session: its URL answers 404 from now on, and folders of creates that never committed go. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 8 << 20;

class BodyTooLarge extends Error {}

export class LoopbackCatalog {
  private readonly sessions = new Map<string, LoopbackSession>();
  private readonly http: Server;
  private port = 0;

  private constructor(private readonly opts: LoopbackCatalogOptions) {
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        this.opts.onError?.(e);
        if (!res.headersSent) send(res, 500, { error: { message: 'the catalog endpoint failed', type: 'ServiceFailureException', code: 500 } });
        else res.destroy();
      });
    });
  }

  static async start(opts: LoopbackCatalogOptions): Promise<LoopbackCatalog> {
    const lc = new LoopbackCatalog(opts);
    await new Promise<void>((resolve, reject) => {
      lc.http.once('error', reject);
      lc.http.listen(0, '127.0.0.1', () => resolve());
    });
    lc.port = (lc.http.address() as AddressInfo).port;
    return lc;
  }

  /** A session's endpoint, every request made as `caller`. */
  open(caller: Caller, options: LoopbackSessionOptions = {}): OpenedSession {
    const secret = randomBytes(32).toString('base64url');
    const session = new LoopbackSession(this.opts.catalog, caller, options);
    this.sessions.set(secret, session);
    return {
      url: `http://127.0.0.1:${this.port}/${secret}`,
      takeEvents: () => session.takeEvents(),
      close: async () => {
        if (this.sessions.get(secret) !== session) return;
        this.sessions.delete(secret);
        await session.close();
      },
    };
  }

  /** Sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    for (const s of open) await s.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const raw = url.pathname.split('/').slice(1);
    const session = this.sessions.get(raw[0] ?? '');
    if (!session) {
      req.resume();
      res.statusCode = 404;
      res.setHeader('Content-Length', 0);
      res.end();
      return;
    }
    const method = req.method ?? 'GET';
    try {
      let segments: string[];
      try {
        segments = raw.slice(1).map((s) => decodeURIComponent(s));
      } catch {
        throw new CatalogError('bad-request', 'Malformed path', 400, 'BadRequestException');
      }
      let body: unknown;
      if (method === 'POST' || method === 'PUT') {
        const text = await readBody(req, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY);
        try {
          body = text === '' ? undefined : parseIcebergJson(text);
        } catch {
          throw new CatalogError('bad-request', 'Malformed request body: invalid JSON', 400, 'BadRequestException');
        }
      } else {
        req.resume();
      }
      const answer = await session.handle(route(method, segments, url.searchParams, body));
      if (method === 'HEAD' || answer.body === undefined) {
        res.statusCode = answer.status;
        res.setHeader('Content-Length', 0);
        res.end();
        return;
      }
      send(res, answer.status, answer.body);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        send(res, 413, { error: { message: 'Request body too large', type: 'BadRequestException', code: 413 } });
        req.destroy();
        return;
      }
      if (!(e instanceof CatalogError)) throw e;
      const status = e.status ?? (e.kind === 'unavailable' ? 503 : 502);
      const type = e.type ?? (status === 503 ? 'ServiceUnavailableException' : 'ServiceFailureException');
      if (method === 'HEAD') {
        res.statusCode = status;
        res.setHeader('Content-Length', 0);
        res.end();
        return;
      }
      // The REST client prefixes the catalog's type; the answer carries it as its own field.
      const message = e.type !== undefined && e.message.startsWith(`${e.type}: `) ? e.message.slice(e.type.length + 2) : e.message;
      send(res, status, { error: { message, type, code: status } });
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = stringifyIcebergJsonCompact(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

async function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > max) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new BodyTooLarge();
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
