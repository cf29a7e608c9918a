/**
 * A session's portals: bound by the protocol (Bind) or declared in SQL
 * (DECLARE, then `cursor` is set), in one namespace as in PostgreSQL. A
 * portal that keeps its own DuckDB connection (a suspended one, a cursor) is
 * an open cursor; both kinds are capped per session.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest } from '../protocol/handler.js';
import type { Portal } from './portal.js';
import type { ScrollCursor } from './scrollCursor.js';
import type { ForwardState } from '../sql/utilityStatements.js';

export interface PortalEntry<S> {
  stmt: S;
  portal: Portal | null;
  done: boolean;
  /** A command's Bind (its parameters and result formats, used when it runs). */
  bind?: BindRequest;
  cursor?: { hold: boolean; binary: boolean; declaredInBlock: boolean; scroll?: ScrollCursor; forward?: ForwardState };
}

export class PortalTable<S> {
  private readonly entries = new Map<string, PortalEntry<S>>();

  constructor(private readonly limits: { maxPortals: number; maxOpenCursors: number }) {}

  get(name: string): PortalEntry<S> | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  set(name: string, entry: PortalEntry<S>): void {
    this.entries.set(name, entry);
  }

  /** A portal whose engine process is gone (its rows went with it). */
  holdsLostEngine(): boolean {
    for (const p of this.entries.values()) if (p.portal?.conn.lost) return true;
    return false;
  }

  openCursors(): number {
    let n = 0;
    for (const p of this.entries.values()) if (p.portal?.ownsConnection) n++;
    return n;
  }

  /** 54000 before a named portal beyond the cap (and, when it needs a connection of its own, a cursor beyond that cap). */
  checkCaps(needsConnection: boolean): void {
    const { maxPortals } = this.limits;
    if (this.entries.size - (this.entries.has('') ? 1 : 0) >= maxPortals) {
      throw new PgError(SqlState.programLimitExceeded, `too many portals (at most ${maxPortals} per session)`, {
        hint: 'Close portals that are no longer needed.',
      });
    }
    if (needsConnection) this.checkCursorCap();
  }

  checkCursorCap(): void {
    if (this.openCursors() >= this.limits.maxOpenCursors) {
      throw new PgError(SqlState.programLimitExceeded, `too many open cursors (at most ${this.limits.maxOpenCursors} per session)`);
    }
  }

  drop(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    if (entry.portal) releasePortal(entry.portal);
  }

  closeAll(): void {
    for (const name of [...this.entries.keys()]) this.drop(name);
  }

  /** CLOSE ALL: the SQL cursors. */
  closeCursors(): void {
    for (const [name, entry] of [...this.entries]) if (entry.cursor) this.drop(name);
  }

  /**
   * The transaction ended: its portals close. A WITH HOLD cursor outlives a
   * commit; a rollback also closes those declared in the block.
   */
  closeTransaction(committed: boolean): void {
    for (const [name, entry] of [...this.entries]) {
      const c = entry.cursor;
      if (c?.hold && (committed || !c.declaredInBlock)) {
        c.declaredInBlock = false;
        continue;
      }
      this.drop(name);
    }
  }
}

/** A portal's result goes, and a connection it kept for itself is closed. */
export function releasePortal(portal: Portal): void {
  portal.close();
  if (portal.ownsConnection) portal.conn.close();
}
