/**
 * What pg_stat_activity says of one session: its state, the statement it runs
 * (or ran last) and when things changed, as PostgreSQL's backend status
 * reports them. The session tells it when a statement starts and when it is
 * ready again; the times come from here.
 */
import type { TransactionStatus } from '../protocol/backend.js';
import type { BackendActivity } from '../pgcatalog/pgCatalogTables.js';

const IDLE: Record<TransactionStatus, string> = { I: 'idle', T: 'idle in transaction', E: 'idle in transaction (aborted)' };

export class SessionActivity {
  readonly backendStart = new Date();
  private query = '';
  private queryStart: Date | null = null;
  private stateChange: Date = this.backendStart;
  private active = false;
  /** When the current transaction block began (null outside one). */
  private blockStart: Date | null = null;

  /** A statement starts (a Query, or Parse / Execute of the extended protocol). */
  running(text: string): void {
    const now = new Date();
    this.query = text;
    this.queryStart = now;
    if (!this.active) this.stateChange = now;
    this.active = true;
  }

  /** The session is ready for the next statement; `status` is what ReadyForQuery says. */
  ready(status: TransactionStatus): void {
    const now = new Date();
    if (this.active) this.stateChange = now;
    this.active = false;
    this.blockStart = status === 'I' ? null : (this.blockStart ?? now);
  }

  row(who: { pid: number; user: string; applicationName: string; clientAddr: string | null; clientPort: number | null }, status: TransactionStatus): BackendActivity {
    // a statement outside a block runs in its own implicit transaction
    const xactStart = this.blockStart ?? (this.active ? this.queryStart : null);
    return {
      ...who,
      backendStart: this.backendStart,
      xactStart,
      queryStart: this.queryStart,
      stateChange: this.stateChange,
      state: this.active ? 'active' : IDLE[status],
      query: this.query,
    };
  }
}
