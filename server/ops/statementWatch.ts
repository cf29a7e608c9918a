/**
 * Each statement's end as an operator sees it: one log line (pino, info) and
 * the statement metrics. A statement is told apart by what PostgreSQL's own
 * protocol marks: it ends with its CommandComplete (kind and rows are the
 * tag's) or with its error (the SQLSTATE); the gate decisions are the ones the
 * planner recorded for the session meanwhile. The text logged is the audit
 * trail's redacted form (every literal a `$n`, comments dropped).
 */
import type { Logger } from 'pino';
import { redact } from '../audit/redact.js';
import { countsOf, emptyDetail, mergeDetail, type GateDetail } from './gateSummary.js';
import type { OpsMetrics } from './metrics.js';

/** First words of statements a failure is counted under; anything else is OTHER (labels stay bounded). */
const KINDS = new Set(
  (
    'SELECT INSERT UPDATE DELETE MERGE WITH VALUES TABLE COPY CREATE DROP ALTER TRUNCATE GRANT REVOKE DENY SET SHOW RESET BEGIN START ' +
    'COMMIT END ROLLBACK ABORT SAVEPOINT RELEASE PREPARE EXECUTE DEALLOCATE DECLARE FETCH MOVE CLOSE DISCARD EXPLAIN ANALYZE VACUUM ' +
    'LISTEN UNLISTEN NOTIFY LOCK CALL DO COMMENT CHECK UNSET REFRESH CHECKPOINT REINDEX CLUSTER SECURITY IMPORT LOAD REASSIGN'
  ).split(' '),
);

/** The kind of a statement that failed before its tag: its first keyword, if it is a known one. */
export function kindOfText(redacted: string): string {
  const word = /^[\s(]*([A-Za-z]+)/.exec(redacted)?.[1]?.toUpperCase() ?? '';
  return KINDS.has(word) ? word : word === '' ? 'EMPTY' : 'OTHER';
}

/** A CommandComplete tag as kind and rows: `INSERT 0 5` → INSERT, 5; `CREATE TABLE` → CREATE TABLE, null. */
export function parseTag(tag: string): { kind: string; rows: number | null } {
  const m = /^([A-Z][A-Z ]*?)(?: (\d+))?(?: (\d+))?$/.exec(tag);
  if (!m) return { kind: 'OTHER', rows: null };
  const rows = m[3] ?? m[2];
  return { kind: m[1]!, rows: rows === undefined ? null : Number(rows) };
}

export interface StatementEnd {
  kind: string;
  rows: number | null;
  sqlstate: string | null;
}

export class StatementWatch {
  private next = 1;
  private readonly sessions = new Map<number, SessionWatch>();

  constructor(
    private readonly metrics: OpsMetrics | null,
    /** null: the statement log is off */
    private log: Logger | null,
  ) {}

  /** The statement log on or off (a reload). */
  setLog(log: Logger | null): void {
    this.log = log;
  }

  /** Whether a statement's text is needed when it succeeds (only for the log: its kind is the tag's). */
  get logging(): boolean {
    return this.log !== null && this.log.isLevelEnabled('info');
  }

  open(pid: number, user: string): SessionWatch {
    const s = new SessionWatch(this, pid, user);
    this.sessions.set(pid, s);
    return s;
  }

  closed(pid: number): void {
    this.sessions.delete(pid);
  }

  /** The planner recorded what the gates decided for this session's statement in progress. */
  gate(pid: number | string | null | undefined, detail: GateDetail): void {
    if (pid === null || pid === undefined) return;
    this.sessions.get(Number(pid))?.gate(detail);
  }

  /** @internal */
  ended(s: SessionWatch, text: string, seconds: number, end: StatementEnd, gate: GateDetail): void {
    const id = this.next++;
    this.metrics?.statement({ kind: end.kind, sqlstate: end.sqlstate, seconds, rows: end.rows, user: s.user });
    this.metrics?.gate(countsOf(gate));
    this.log?.info(
      {
        event: 'statement',
        statementId: id,
        user: s.user,
        pid: s.pid,
        kind: end.kind,
        durationMs: Math.round(seconds * 1e4) / 10,
        rows: end.rows,
        sqlstate: end.sqlstate ?? '00000',
        ...gate,
        statement: text,
      },
      'statement',
    );
  }
}

/** One session's statement in progress. */
export class SessionWatch {
  private startedAt: number | null = null;
  /** The text of the message (or of the prepared statement) being run; redacted and split only when needed. */
  private sql = '';
  private parts: string[] | null = null;
  private partIndex = 0;
  private detail: GateDetail = emptyDetail();
  private extended = false;
  /** Reads what the session wrote so far, so a statement's end is seen before the next one's decisions. */
  catchUp: () => void = () => undefined;
  private readonly prepared = new Map<string, string>();
  private readonly portals = new Map<string, string>();

  constructor(
    private readonly watch: StatementWatch,
    readonly pid: number,
    readonly user: string,
  ) {}

  /** A simple query message: its statements end one by one. */
  simpleQuery(sql: string): void {
    this.extended = false;
    this.begin(sql);
  }

  parsed(name: string, sql: string): void {
    remember(this.prepared, name, sql);
    this.startIfIdle(sql);
  }

  bound(portal: string, statement: string): void {
    const sql = this.prepared.get(statement) ?? '';
    remember(this.portals, portal, sql);
    this.startIfIdle(sql);
  }

  executing(portal: string): void {
    this.startIfIdle(this.portals.get(portal) ?? '');
  }

  /** Close of a statement or portal by name. */
  forget(kind: 'S' | 'P', name: string): void {
    (kind === 'S' ? this.prepared : this.portals).delete(name);
  }

  gate(detail: GateDetail): void {
    this.catchUp();
    mergeDetail(this.detail, detail);
  }

  /** A CommandComplete went out. */
  completed(tag: string): void {
    if (this.startedAt === null) return;
    this.finish(parseTag(tag), null);
  }

  /** The message failed with this SQLSTATE: the statement in progress failed. */
  failed(code: string): void {
    if (this.startedAt === null) this.startedAt = performance.now();
    this.finish(null, code);
  }

  /** Sync, or the end of a simple query: nothing more belongs to the statement in progress (Parse + Describe only is no statement). */
  settled(): void {
    this.startedAt = null;
    this.sql = '';
    this.parts = null;
    this.partIndex = 0;
    this.detail = emptyDetail();
  }

  private begin(sql: string): void {
    this.startedAt = performance.now();
    this.sql = sql;
    this.parts = null;
    this.partIndex = 0;
    this.detail = emptyDetail();
  }

  /** The redacted text of the statement in progress (the message's n-th). */
  private text(): string {
    if (this.parts === null) {
      // Literals are $n in the redacted text, so a ';' there is a statement's end (or in a quoted name: then the parts are off, not the values).
      const text = this.sql === '' ? '' : redact(this.sql);
      this.parts = text.split(/;\s*/).filter((p) => p !== '');
      if (this.parts.length === 0) this.parts = [text];
    }
    return this.parts[Math.min(this.partIndex, this.parts.length - 1)] ?? '';
  }

  private startIfIdle(sql: string): void {
    this.extended = true;
    if (this.startedAt === null) this.begin(sql);
  }

  private finish(tag: { kind: string; rows: number | null } | null, code: string | null): void {
    const now = performance.now();
    // Redacting costs a scan: done for the log, and for a failure's kind.
    const text = this.watch.logging || !tag ? this.text() : '';
    const kind = tag ? tag.kind : kindOfText(text);
    this.watch.ended(this, text, (now - this.startedAt!) / 1000, { kind, rows: tag?.rows ?? null, sqlstate: code }, this.detail);
    this.detail = emptyDetail();
    if (this.extended) {
      // The next Parse, Bind or Execute starts the next statement.
      this.startedAt = null;
      return;
    }
    // The message's next statement starts now.
    this.startedAt = now;
    this.partIndex++;
  }
}

/**
 * Texts kept by name for the log, bounded whatever the client does (names the session refused, or
 * dropped by DEALLOCATE / DISCARD, which it does not tell): past the bound the oldest go.
 */
const MAX_NAMES = 2048;
function remember(names: Map<string, string>, name: string, sql: string): void {
  names.delete(name);
  names.set(name, sql);
  if (names.size > MAX_NAMES) names.delete(names.keys().next().value!);
}
