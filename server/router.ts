/**
 * The statement router: every parsed statement gets a route, and anything
 * not on the allowlist is refused naming its kind. No statement reaches the
 * engine without passing through here, and the access-control statements
 * (lakegate's grammar, parsed by server/statementParser.ts) are routed here too.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import type { AdminStatement } from '../policy/admin/statement.js';
import type { ParsedStatement } from '../sql/parse.js';
import { sessionCalls } from '../sql/sessionCalls.js';
import { isAccessControl, type MessageStatement } from './statementParser.js';

export type Route =
  | { kind: 'query' }
  | { kind: 'set' }
  | { kind: 'show' }
  | { kind: 'transaction' }
  | { kind: 'discard' }
  | { kind: 'deallocate' }
  | { kind: 'declare' }
  | { kind: 'fetch' }
  | { kind: 'closeCursor' }
  | { kind: 'copy' }
  | { kind: 'prepare' }
  | { kind: 'execute' }
  | { kind: 'sessionFunction' }
  /** ANALYZE: nothing to gather (the engine reads Iceberg's own statistics); the tables are checked as the user, then the tag. */
  | { kind: 'analyze' }
  /** A write (issue 19): planned by the write planner, carried out by the session's writes (server/write/). */
  | { kind: 'write' }
  /** GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS / SET TAG …: run by policy/admin through server/admin.ts. */
  | { kind: 'accessControl'; statement: AdminStatement }
  | { kind: 'refused'; error: PgError };

/** PostgreSQL's command names for the statements we refuse, so the message names what the user typed. */
const COMMAND_NAMES: Record<string, string> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: 'CREATE TABLE AS',
  CreateSchemaStmt: 'CREATE SCHEMA',
  ViewStmt: 'CREATE VIEW',
  IndexStmt: 'CREATE INDEX',
  AlterTableStmt: 'ALTER TABLE',
  RenameStmt: 'ALTER ... RENAME',
  DropStmt: 'DROP',
  TruncateStmt: 'TRUNCATE',
  CommentStmt: 'COMMENT',
  GrantStmt: 'GRANT',
  GrantRoleStmt: 'GRANT role',
  CreateRoleStmt: 'CREATE ROLE',
  AlterRoleStmt: 'ALTER ROLE',
  DropRoleStmt: 'DROP ROLE',
  CreateFunctionStmt: 'CREATE FUNCTION',
  CreateExtensionStmt: 'CREATE EXTENSION',
  CopyStmt: 'COPY',
  PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE',
  DeclareCursorStmt: 'DECLARE CURSOR',
  FetchStmt: 'FETCH',
  ClosePortalStmt: 'CLOSE',
  ListenStmt: 'LISTEN',
  NotifyStmt: 'NOTIFY',
  UnlistenStmt: 'UNLISTEN',
  LoadStmt: 'LOAD',
  VacuumStmt: 'VACUUM',
  ExplainStmt: 'EXPLAIN',
  CallStmt: 'CALL',
  DoStmt: 'DO',
  LockStmt: 'LOCK',
  CheckPointStmt: 'CHECKPOINT',
  VariableSetStmt: 'SET',
  CreatedbStmt: 'CREATE DATABASE',
  DropdbStmt: 'DROP DATABASE',
  CreateSeqStmt: 'CREATE SEQUENCE',
  AlterSystemStmt: 'ALTER SYSTEM',
  ReindexStmt: 'REINDEX',
  ClusterStmt: 'CLUSTER',
  RefreshMatViewStmt: 'REFRESH MATERIALIZED VIEW',
  SecLabelStmt: 'SECURITY LABEL',
};

/** Statements that would change data or definitions: a permission matter, not a missing feature. */
const WRITES = new Set([
  'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'CreateStmt', 'CreateTableAsStmt', 'CreateSchemaStmt',
  'ViewStmt', 'IndexStmt', 'AlterTableStmt', 'RenameStmt', 'DropStmt', 'TruncateStmt', 'CommentStmt',
  'CreateRoleStmt', 'AlterRoleStmt', 'DropRoleStmt', 'CreateFunctionStmt', 'CreateExtensionStmt',
  'CreatedbStmt', 'DropdbStmt', 'CreateSeqStmt', 'AlterSystemStmt', 'RefreshMatViewStmt', 'GrantStmt', 'GrantRoleStmt',
]);

export function commandName(kind: string): string {
  return COMMAND_NAMES[kind] ?? kind.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
}

function refuse(kind: string): Route {
  const name = commandName(kind);
  if (WRITES.has(kind)) {
    return {
      kind: 'refused',
      error: new PgError(SqlState.insufficientPrivilege, `permission denied: ${name} is not allowed through lakegate`, {
        detail: 'lakegate serves read-only queries; data and definitions change through the catalog.',
      }),
    };
  }
  return { kind: 'refused', error: PgError.featureNotSupported(`${name} is not supported by lakegate`) };
}

/**
 * The writes lakegate carries out through the Iceberg catalog (the write
 * planner refuses forms it does not take, with PostgreSQL's errors); other
 * definitions (indexes, roles, functions …) stay refused.
 */
const WRITE_STATEMENTS = new Set([
  'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt', 'CreateStmt', 'CreateTableAsStmt', 'CreateSchemaStmt',
  'ViewStmt', 'AlterTableStmt', 'RenameStmt', 'DropStmt', 'CommentStmt',
]);

export function route(stmt: MessageStatement): Route {
  if (isAccessControl(stmt)) return { kind: 'accessControl', statement: stmt.accessControl };
  const fields = stmt.node[stmt.kind]!;
  if (WRITE_STATEMENTS.has(stmt.kind)) return { kind: 'write' };
  switch (stmt.kind) {
    case 'SelectStmt':
      // SELECT … INTO creates a table.
      if (fields['intoClause']) return { kind: 'write' };
      // pg_sleep, set_config, pg_cancel_backend …: answered from the session's state.
      if (sessionCalls(fields)) return { kind: 'sessionFunction' };
      return { kind: 'query' };
    case 'ExplainStmt': {
      const inner = Object.keys(fields['query'] ?? {})[0];
      if (inner === 'SelectStmt' && !(fields['query'] as ParsedStatement['node'])['SelectStmt']?.['intoClause']) return { kind: 'query' };
      if (inner && WRITE_STATEMENTS.has(inner)) return { kind: 'refused', error: PgError.featureNotSupported(`EXPLAIN of ${commandName(inner)} is not supported by lakegate`) };
      return refuse(inner ?? 'ExplainStmt');
    }
    case 'VariableSetStmt':
      return { kind: 'set' };
    case 'VariableShowStmt':
      return { kind: 'show' };
    case 'TransactionStmt': {
      const k = fields['kind'] as string;
      if (['TRANS_STMT_PREPARE', 'TRANS_STMT_COMMIT_PREPARED', 'TRANS_STMT_ROLLBACK_PREPARED'].includes(k)) {
        return { kind: 'refused', error: PgError.featureNotSupported('prepared transactions are not supported by lakegate') };
      }
      return { kind: 'transaction' };
    }
    case 'DiscardStmt':
      return { kind: 'discard' };
    case 'DeallocateStmt':
      return { kind: 'deallocate' };
    // Cursors, COPY TO STDOUT and PREPARE wrap a query: the session plans it like any other.
    case 'DeclareCursorStmt':
      return { kind: 'declare' };
    case 'FetchStmt':
      return { kind: 'fetch' };
    case 'ClosePortalStmt':
      return { kind: 'closeCursor' };
    case 'CopyStmt':
      return { kind: 'copy' };
    case 'PrepareStmt': {
      const query = fields['query'] as ParsedStatement['node'];
      const kind = Object.keys(query)[0]!;
      const inner = route({ node: query, kind, text: stmt.text, offset: stmt.offset });
      if (inner.kind === 'refused') return inner;
      if (inner.kind === 'write') return { kind: 'refused', error: PgError.featureNotSupported(`PREPARE of ${commandName(kind)} is not supported by lakegate`) };
      if (inner.kind !== 'query') return refuse(kind);
      return { kind: 'prepare' };
    }
    case 'ExecuteStmt':
      return { kind: 'execute' };
    case 'VacuumStmt':
      return fields['is_vacuumcmd'] ? refuse(stmt.kind) : { kind: 'analyze' };
    default:
      return refuse(stmt.kind);
  }
}
