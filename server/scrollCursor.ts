/**
 * A SCROLL cursor: fetched forward, backward, by absolute or relative position,
 * with PostgreSQL's position rules (before the first row, on row k, after the last)
 * and its command tags.
 *
 * Memory: the result is not kept in Node. At its first FETCH or MOVE the cursor's
 * query runs once into a temporary table on the cursor's own engine connection (rows
 * in the query's order, numbered by the engine's rowid), and each FETCH reads the rows
 * it needs from there. The table is the engine's to hold: within DuckDB's memory_limit,
 * spilled to its temp_directory (53200 "out of memory" when it can do neither), and at
 * most limits.maxScrollCursorRows rows (54000 beyond: DuckDB 1.5 does not hold spilled
 * in-memory tables to max_temp_directory_size, so the row cap is what bounds the spool
 * on disk). The table goes with the connection when the cursor is closed.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import type { Output } from '../protocol/handler.js';
import type { Portal } from './portal.js';
import type { CursorFetch } from '../sql/utilityStatements.js';

let spoolSeq = 0;

/** Rows k..m (1-based, inclusive) in that order: descending when k > m. */
interface Span {
  from: number;
  to: number;
}

export class ScrollCursor {
  private readonly table = `temp.main."lg_scroll_${++spoolSeq}"`;
  private total: number | null = null;
  /** 0: before the first row; 1..total: on that row; total + 1: after the last. */
  private position = 0;

  constructor(
    private readonly portal: Portal,
    private readonly columnCount: number,
    private readonly maxRows: number,
  ) {}

  /** Run the query into the spool table once; afterwards only its rows are read. */
  private async spool(): Promise<number> {
    if (this.total !== null) return this.total;
    if (this.columnCount === 0) throw PgError.featureNotSupported('a SCROLL cursor over a query without columns is not supported by lakegate');
    const conn = this.portal.conn;
    // Positional names: the query's own may repeat (SELECT 1 AS a, 2 AS a).
    const columns = Array.from({ length: this.columnCount }, (_, i) => `"c${i}"`).join(', ');
    // one row past the cap tells that the result is larger than it
    await conn.run(`CREATE TEMP TABLE ${this.table} AS SELECT * FROM (${this.portal.sql}) AS lg_q(${columns}) LIMIT ${this.maxRows + 1}`, this.portal.params);
    const [counted] = await conn.rows(`SELECT count(*) AS n FROM ${this.table}`);
    const total = Number(counted!['n']);
    if (total > this.maxRows) {
      await conn.run(`DROP TABLE ${this.table}`);
      throw new PgError(SqlState.programLimitExceeded, `SCROLL cursor result is too large (more than ${this.maxRows} rows)`, {
        hint: 'Fetch it with a cursor without SCROLL, or narrow the query.',
      });
    }
    this.total = total;
    return total;
  }

  /** The rows a FETCH (or MOVE) covers, and where the cursor is afterwards, as PostgreSQL's DoPortalRunFetch. */
  private plan(f: CursorFetch, n: number): { span: Span | null; position: number } {
    const pos = this.position;
    const current = (): { span: Span | null; position: number } => ({ span: pos >= 1 && pos <= n ? { from: pos, to: pos } : null, position: pos });
    const one = (k: number, past: number) => (k >= 1 && k <= n ? { span: { from: k, to: k }, position: k } : { span: null, position: past });
    switch (f.direction) {
      case 'forward': {
        if (f.count === 0) return current();
        const from = pos + 1;
        const to = Math.min(pos + f.count, n);
        return { span: from <= to ? { from, to } : null, position: pos + f.count > n ? n + 1 : pos + f.count };
      }
      case 'backward': {
        if (f.count === 0) return current();
        const from = pos - 1;
        const to = Math.max(pos - f.count, 1);
        return { span: from >= to ? { from, to } : null, position: pos - f.count < 1 ? 0 : pos - f.count };
      }
      case 'absolute':
        if (f.count > 0) return one(f.count, n + 1);
        if (f.count < 0) return one(n + 1 + f.count, 0);
        return { span: null, position: 0 };
      case 'relative':
        if (f.count === 0) return current();
        return one(pos + f.count, f.count > 0 ? n + 1 : 0);
    }
  }

  /** FETCH writes the rows (in the portal's current formats), MOVE only moves; returns the count for the tag. */
  async fetch(f: CursorFetch, out: Output): Promise<number> {
    const n = await this.spool();
    const { span, position } = this.plan(f, n);
    this.position = position;
    if (!span) return 0;
    const count = Math.abs(span.to - span.from) + 1;
    if (f.move) return count;
    const encoding = this.portal.currentEncoding();
    if (!encoding) throw new PgError(SqlState.featureNotSupported, 'EXPLAIN output cannot be fetched this way');
    const desc = span.from > span.to;
    const [lo, hi] = desc ? [span.to, span.from] : [span.from, span.to];
    // rowid numbers the spooled rows from 0 in the query's order
    const sql = `SELECT * FROM ${this.table} WHERE rowid BETWEEN ${lo - 1} AND ${hi - 1} ORDER BY rowid ${desc ? 'DESC' : 'ASC'}`;
    const { result, batch } = await this.portal.conn.execute({ sql }, [], encoding, { maxRows: 0, skip: false });
    for (let b = batch!; ; b = await result.fetch(0, false)) {
      if (b.data) out.writer.bytes(b.data);
      if (b.done) break;
      await out.maybeFlush();
    }
    return count;
  }
}
