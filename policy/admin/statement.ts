/** The access-control statements, as plain data (parse.ts builds them, plan.ts reads them). */
import type { Privilege } from './privileges.js';

export type GranteeType = 'USER' | 'ROLE' | 'GROUP';
export interface Grantee {
  type: GranteeType;
  name: string;
}

/** What a statement names; names are as written (1 to 3 parts for a table: [catalog.]schema.table). */
export type ObjectRef =
  | { kind: 'table' | 'view'; parts: string[] }
  | { kind: 'schema'; parts: string[] }
  | { kind: 'database'; parts: string[] }
  /** ALL TABLES / FUTURE TABLES / ALL VIEWS IN SCHEMA s: one wildcard policy, covering tables created later too. */
  | { kind: 'all-tables' | 'future-tables' | 'all-views'; parts: string[] };

export interface GrantStatement {
  kind: 'grant' | 'revoke' | 'deny';
  privileges: Privilege[];
  object: ObjectRef;
  grantees: Grantee[];
  /** WITH GRANT OPTION → delegateAdmin */
  grantOption: boolean;
}

export interface ShowGrantsStatement {
  kind: 'show-grants';
  on?: ObjectRef;
  to?: Grantee;
}

export interface CheckAccessStatement {
  kind: 'check-access';
  privilege: Privilege;
  object: ObjectRef;
  user: string;
}

export interface TagStatement {
  kind: 'set-tag' | 'unset-tag';
  tag: string;
  /** [catalog.]schema.table.column; sqe's ALTER TABLE form may name table.column (the schema from search_path) */
  column: string[];
  /** `ALTER TABLE t ALTER COLUMN c SET TAG …` (sqe's form): answered with ALTER TABLE's command tag */
  alterTable?: true;
}

/** SHOW TAGS ON [catalog.]schema.table: the table's `sqe.column-tags`, one row per column and tag. */
export interface ShowTagsStatement {
  kind: 'show-tags';
  /** [[catalog.]schema.]table as written */
  table: string[];
}

export type AdminStatement = GrantStatement | ShowGrantsStatement | CheckAccessStatement | TagStatement | ShowTagsStatement;

/** The command tag PostgreSQL-style clients see. */
export function commandTag(s: AdminStatement): string {
  switch (s.kind) {
    case 'grant':
      return 'GRANT';
    case 'revoke':
      return 'REVOKE';
    case 'deny':
      return 'DENY';
    case 'set-tag':
      return s.alterTable ? 'ALTER TABLE' : 'SET TAG';
    case 'unset-tag':
      return s.alterTable ? 'ALTER TABLE' : 'UNSET TAG';
    case 'show-grants':
    case 'show-tags':
    case 'check-access':
      return 'SELECT';
  }
}
