/**
 * A write statement to its plan, statement by statement (sql/write/*.ts),
 * and what the catalog must load for it beyond what a read would (the names
 * it writes, creates or renames to; a schema's content for DROP SCHEMA).
 */
import { notSupported } from '../errors.js';
import type { RelationName } from '../needs.js';
import type { ParsedStatement } from '../parse.js';
import { effectiveSearchPath } from '../resolve.js';
import { names, type Fields } from '../walk.js';
import { planAlterTable } from './alter.js';
import { planComment } from './comment.js';
import type { WriteContext } from './context.js';
import { planCreateTable } from './createTable.js';
import { planCreateTableAs } from './createTableAs.js';
import { planDelete } from './delete.js';
import { planDrop, nameFromList } from './drop.js';
import { planInsert } from './insert.js';
import { planMerge } from './merge.js';
import type { CatalogWrite, EngineWrite, TableAsWrite } from './plan.js';
import { planRename } from './rename.js';
import { planCreateSchema } from './schema.js';
import { planTruncate } from './truncate.js';
import { planUpdate } from './update.js';
import { planCreateView } from './view.js';

/** The statement kinds planWriteStatement plans (SelectStmt only with INTO). */
export const WRITE_KINDS: ReadonlySet<string> = new Set([
  'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt', 'CreateStmt', 'CreateTableAsStmt', 'CreateSchemaStmt',
  'ViewStmt', 'AlterTableStmt', 'RenameStmt', 'DropStmt', 'CommentStmt',
]);

/** A write's plan before the server adds its audit (PlanFacts). */
export type WriteStatementPlan = EngineWrite | TableAsWrite | CatalogWrite;

export function planWriteStatement(stmt: ParsedStatement, ctx: WriteContext): WriteStatementPlan {
  switch (stmt.kind) {
    case 'InsertStmt':
      return planInsert(stmt, ctx);
    case 'UpdateStmt':
      return planUpdate(stmt, ctx);
    case 'DeleteStmt':
      return planDelete(stmt, ctx);
    case 'MergeStmt':
      return planMerge(stmt, ctx);
    case 'TruncateStmt':
      return planTruncate(stmt, ctx);
    case 'CreateStmt':
      return planCreateTable(stmt, ctx);
    case 'CreateTableAsStmt':
      return planCreateTableAs(stmt, ctx);
    case 'SelectStmt':
      if (stmt.node['SelectStmt']!['intoClause']) return planCreateTableAs(stmt, ctx);
      break;
    case 'CreateSchemaStmt':
      return planCreateSchema(stmt, ctx);
    case 'ViewStmt':
      return planCreateView(stmt, ctx);
    case 'AlterTableStmt':
      return planAlterTable(stmt, ctx);
    case 'RenameStmt':
      return planRename(stmt, ctx);
    case 'DropStmt':
      return planDrop(stmt, ctx);
    case 'CommentStmt':
      return planComment(stmt, ctx);
  }
  throw notSupported(`${stmt.kind} as a write`);
}

const rangeVarName = (rv: Fields | undefined): RelationName[] =>
  rv
    ? [
        {
          ...(rv['catalogname'] !== undefined ? { catalog: String(rv['catalogname']) } : {}),
          ...(rv['schemaname'] !== undefined ? { schema: String(rv['schemaname']) } : {}),
          name: String(rv['relname']),
        },
      ]
    : [];

const listName = (items: unknown): RelationName[] => {
  const parts = names(items);
  if (parts.length === 0 || parts.length > 3) return [];
  return [nameFromList(parts)];
};

/**
 * What a write needs the catalog to load besides the relations its tree
 * reads (sql/needs.ts): the relation it writes, a name it creates or renames
 * to (to tell whether it is taken), and for DROP SCHEMA the listing.
 */
export function writeNeeds(stmt: ParsedStatement, ctx: { searchPath: string[]; user: string }): { relations: RelationName[]; listing: boolean } {
  const f = stmt.node[stmt.kind] ?? {};
  switch (stmt.kind) {
    case 'CreateStmt':
      return { relations: rangeVarName(f['relation']), listing: false };
    case 'CreateTableAsStmt':
      return { relations: rangeVarName(f['into']?.['rel']), listing: false };
    case 'SelectStmt':
      return { relations: rangeVarName(f['intoClause']?.['rel']), listing: false };
    case 'ViewStmt':
      return { relations: rangeVarName(f['view']), listing: false };
    case 'AlterTableStmt':
      return { relations: rangeVarName(f['relation']), listing: false };
    case 'RenameStmt': {
      const from = rangeVarName(f['relation']);
      // the new name is looked up in the schema the relation is found in: any of the path's for an unqualified one
      const schemas = (n: RelationName) => (n.schema !== undefined ? [n.schema] : effectiveSearchPath(ctx));
      const to = from.flatMap((n) => schemas(n).map((schema) => ({ schema, name: String(f['newname']) })));
      return { relations: f['renameType'] === 'OBJECT_COLUMN' ? from : [...from, ...to], listing: false };
    }
    case 'DropStmt':
      if (f['removeType'] === 'OBJECT_SCHEMA') return { relations: [], listing: true };
      return { relations: ((f['objects'] ?? []) as Fields[]).flatMap((o) => listName(o['List']?.['items'])), listing: false };
    case 'CommentStmt': {
      const items = ((f['object'] as Fields | undefined)?.['List']?.['items'] ?? []) as unknown[];
      return { relations: listName(f['objtype'] === 'OBJECT_COLUMN' ? items.slice(0, -1) : items), listing: false };
    }
    default:
      return { relations: [], listing: false };
  }
}
