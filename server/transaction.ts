/**
 * Transaction blocks as PostgreSQL clients expect them. lakegate serves
 * read-only queries, so a block needs no engine transaction: it is the
 * status the client sees (I, T, E), savepoints, and the aborted state.
 */
import type { TransactionStatus, NoticeFields } from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { Fields } from '../sql/walk.js';

export interface TransactionOutcome {
  tag: string;
  notice?: NoticeFields;
  /** The block ended: cursors (portals) of the block are closed. */
  ended: boolean;
}

export class TransactionState {
  private inBlock = false;
  private failed = false;
  private savepoints: string[] = [];
  /** A query ran in this block (SET TRANSACTION ISOLATION LEVEL must come before any). */
  private ranQuery = false;

  status(): TransactionStatus {
    if (!this.inBlock) return 'I';
    return this.failed ? 'E' : 'T';
  }

  get active(): boolean {
    return this.inBlock;
  }

  get queried(): boolean {
    return this.ranQuery;
  }

  noteQuery(): void {
    if (this.inBlock) this.ranQuery = true;
  }

  markFailed(): void {
    if (this.inBlock) this.failed = true;
  }

  /** In a failed block only transaction control may run. */
  checkNotAborted(): void {
    if (this.failed) {
      throw new PgError(
        SqlState.inFailedSqlTransaction,
        'current transaction is aborted, commands ignored until end of transaction block',
      );
    }
  }

  /** Apply a TransactionStmt. */
  apply(stmt: Fields): TransactionOutcome {
    const kind = stmt['kind'] as string;
    switch (kind) {
      case 'TRANS_STMT_BEGIN':
      case 'TRANS_STMT_START': {
        this.checkNotAborted();
        const tag = kind === 'TRANS_STMT_BEGIN' ? 'BEGIN' : 'START TRANSACTION';
        if (this.inBlock) {
          return { tag, ended: false, notice: warning(SqlState.activeSqlTransaction, 'there is already a transaction in progress') };
        }
        this.inBlock = true;
        return { tag, ended: false };
      }
      case 'TRANS_STMT_COMMIT':
      case 'TRANS_STMT_ROLLBACK': {
        const tag = kind === 'TRANS_STMT_COMMIT' && !this.failed ? 'COMMIT' : 'ROLLBACK';
        if (!this.inBlock) {
          return { tag, ended: true, notice: warning(SqlState.noActiveSqlTransaction, 'there is no transaction in progress') };
        }
        if (stmt['chain']) {
          this.failed = false;
          this.ranQuery = false;
          this.savepoints = [];
          return { tag, ended: true };
        }
        this.reset();
        return { tag, ended: true };
      }
      case 'TRANS_STMT_SAVEPOINT': {
        this.checkNotAborted();
        this.requireBlock('SAVEPOINT');
        this.savepoints.push(stmt['savepoint_name'] as string);
        return { tag: 'SAVEPOINT', ended: false };
      }
      case 'TRANS_STMT_RELEASE': {
        this.checkNotAborted();
        this.requireBlock('RELEASE SAVEPOINT');
        const at = this.findSavepoint(stmt['savepoint_name'] as string);
        this.savepoints.length = at;
        return { tag: 'RELEASE', ended: false };
      }
      case 'TRANS_STMT_ROLLBACK_TO': {
        this.requireBlock('ROLLBACK TO SAVEPOINT');
        const at = this.findSavepoint(stmt['savepoint_name'] as string);
        this.savepoints.length = at + 1;
        this.failed = false;
        return { tag: 'ROLLBACK', ended: false };
      }
      default:
        throw PgError.featureNotSupported(`transaction command ${kind} is not supported by lakegate`);
    }
  }

  reset(): void {
    this.inBlock = false;
    this.failed = false;
    this.ranQuery = false;
    this.savepoints = [];
  }

  private requireBlock(command: string): void {
    if (!this.inBlock) {
      throw new PgError(SqlState.noActiveSqlTransaction, `${command} can only be used in transaction blocks`);
    }
  }

  private findSavepoint(name: string): number {
    const at = this.savepoints.lastIndexOf(name);
    if (at < 0) throw new PgError(SqlState.invalidSavepointSpecification, `savepoint "${name}" does not exist`);
    return at;
  }
}

const warning = (code: string, message: string): NoticeFields => ({ severity: 'WARNING', code, message });
