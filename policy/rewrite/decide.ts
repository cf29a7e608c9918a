/**
 * Decide, for one user and one table, what the data gate must do — plain data,
 * no SQL (Trino's getRowFilters / getColumnMask; design.md style rule 2):
 * may the user see the table at all, which row filters apply, and per column
 * whether it is readable and which mask it gets, with the policies behind each
 * answer. policy/rewrite/apply.ts turns a decision into the derived table.
 *
 * Requests are Ranger's hive resources (reference/ranger.md §4, §6):
 *  - table: `{database, table}`, access `select`, scope SELF_OR_DESCENDANTS, so a
 *    grant on some columns only makes the table visible (the other columns are
 *    restricted) while a deny on the table, or on all its columns, hides it;
 *  - column: `{database, table, column}`, access `select`: denied → restricted;
 *  - mask: the same column request; row filter: the table request.
 * Column tags (the table's own, or the configured file) attach to the column
 * they name (SELF) and to the table (DESCENDANT), next to whatever tags the
 * engine's own tag store attaches.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import type { AccessRequest, DataMaskResult, RowFilterResult, TagForEval } from '../ranger/request.js';
import { policyNameOf, type CatalogTable, type PolicyResource } from '../../sql/catalogView.js';

export type ColumnTags = Readonly<Record<string, readonly string[]>>;

export interface Subject {
  user: string;
  roles: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}

export type MaskPrecedence = 'tag' | 'resource';

/** A policy behind a decision, as EXPLAIN (POLICY) names it. */
export interface PolicyRef {
  id: number;
  name: string | null;
  /** the tag through which a tag policy applied */
  tag?: string;
}

export interface RowFilterDecision {
  expr: string;
  policy: PolicyRef;
  /** The policies' audit setting and the service's audit filters want it audited. */
  audited: boolean;
}

export interface MaskDecision {
  /** Ranger's mask type as the policy names it (`MASK_HASH`, `CUSTOM`, `trino:MASK_NULL` …). */
  type: string;
  /** The service def's transformer for the type (`mask_hash({col})`); null for MASK_NULL, MASK_NONE, CUSTOM. */
  transformer: string | null;
  /** CUSTOM's value expression. */
  valueExpr: string | null;
  policy: PolicyRef;
  audited: boolean;
}

export interface ColumnDecision {
  /** the column as the scan reads it and the user sees it */
  name: string;
  /** the column the policies decided it as (its current name); null: no longer in the table, restricted */
  policyName: string | null;
  duckType: string;
  /** A json / jsonb column kept as an Iceberg string (CatalogColumn.pgType). */
  pgType?: 'json' | 'jsonb';
  /** false: the column is restricted (a typed NULL in its place). */
  readable: boolean;
  /** The policy that denied it (when one did; -1 when nothing allowed it). */
  denyPolicy: PolicyRef | null;
  /** A restriction is to be audited (the column access decision's audit flag). */
  audited?: boolean;
  /** Why the column is restricted when no policy decided it. */
  restriction?: string;
  mask: MaskDecision | null;
}

/** The table access decision as the audit trail records it. */
export interface AccessAudit {
  policyId: number;
  policyVersion: number | null;
  audited: boolean;
  zoneName: string | null;
}

export type TableDecision =
  | { visible: false; reason: string; access?: AccessAudit }
  | {
      visible: true;
      resource: PolicyResource;
      accessPolicy: PolicyRef | null;
      access: AccessAudit;
      /** AND-ed together. */
      rowFilters: RowFilterDecision[];
      /** Set when no row may be shown whatever the filters say (tag state unknown, a mask policy lakegate cannot honour). */
      noRows: string | null;
      /** The policy that made no row showable, when one did. */
      noRowsPolicy?: { policy: PolicyRef; audited: boolean };
      columns: ColumnDecision[];
      /** The user holds delegated admin on the table (or is a super user): may see filter text. */
      admin: boolean;
    };

export interface DecideOptions {
  maskPrecedence: MaskPrecedence;
}

/** A resource that names a database and a table, both non-empty. */
export function validResource(r: PolicyResource | undefined): r is PolicyResource {
  return !!r && typeof r.database === 'string' && r.database !== '' && typeof r.table === 'string' && r.table !== '';
}

class Requests {
  constructor(
    private readonly engine: PolicyEngine,
    private readonly subject: Subject,
    private readonly resource: PolicyResource,
  ) {}

  private base(resource: Record<string, string>, accessType: string): AccessRequest {
    const s = this.subject;
    return {
      resource,
      accessType,
      user: s.user,
      userGroups: s.groups,
      ...(s.roles.size > 0 ? { userRoles: s.roles } : {}),
    };
  }

  table(accessType: string, extraTags: readonly TagForEval[]): AccessRequest {
    const req: AccessRequest = {
      ...this.base({ database: this.resource.database, table: this.resource.table }, accessType),
      resourceMatchingScope: 'SELF_OR_DESCENDANTS',
    };
    return this.withTags(req, extraTags);
  }

  column(column: string, extraTags: readonly TagForEval[]): AccessRequest {
    const req = this.base({ database: this.resource.database, table: this.resource.table, column }, 'select');
    return this.withTags(req, extraTags);
  }

  /** Tags the engine attaches itself, plus ours; without ours the engine is left to attach (and cache) on its own. */
  private withTags(req: AccessRequest, extra: readonly TagForEval[]): AccessRequest {
    if (extra.length === 0) return req;
    const own = this.engine.policiesFor(req).tags;
    return { ...req, tags: [...own, ...extra] };
  }
}

function tagsOf(names: Iterable<string>, matchType: TagForEval['matchType']): TagForEval[] {
  return [...new Set(names)].map((type) => ({ type, attributes: {}, matchType }));
}

function ref(engine: PolicyEngine, id: number, tag?: string): PolicyRef {
  return { id, name: engine.policyName(id) ?? null, ...(tag !== undefined ? { tag } : {}) };
}

/**
 * A mask this gate can apply as the service def defines it: a type the def
 * lists (a tag policy's `hive:` prefix already stripped), and for CUSTOM an
 * expression. Not usable: CUSTOM without an expression, another component's
 * type (`trino:MASK_NULL`), a type the def does not list.
 */
function usableMask(engine: PolicyEngine, m: DataMaskResult): boolean {
  const type = m.maskType;
  if (type === null) return false;
  const defined = engine.serviceDef.dataMaskDef?.maskTypes.some((t) => t.name === type) ?? false;
  if (!defined) return false;
  if (type === 'CUSTOM') return (m.maskedValue ?? '').trim() !== '';
  return type === 'MASK_NULL' || type === 'MASK_NONE' || m.transformer !== null;
}

/**
 * Resource and tag answers combined: with `tag` precedence exactly Ranger's
 * rule (the tag policy wins unless the resource policy has a strictly higher
 * priority); with `resource` precedence a resource decision, MASK_NONE
 * included, wins over any tag policy.
 */
function combine<T extends DataMaskResult | RowFilterResult>(
  resource: T,
  tag: T,
  decided: (r: T) => boolean,
  precedence: MaskPrecedence,
  usable: (r: T) => boolean = () => true,
): { result: T; fromTag: boolean } | null {
  const r = decided(resource);
  const t = decided(tag);
  if (!r && !t) return null;
  if (!t) return { result: resource, fromTag: false };
  if (!r) return { result: tag, fromTag: true };
  // SQE's rewriter: an unusable winner gives way to a usable loser, whichever precedence; both unusable, the winner stays (and restricts).
  const ru = usable(resource);
  if (ru !== usable(tag)) return ru ? { result: resource, fromTag: false } : { result: tag, fromTag: true };
  if (precedence === 'resource') return { result: resource, fromTag: false };
  return resource.policyPriority > tag.policyPriority ? { result: resource, fromTag: false } : { result: tag, fromTag: true };
}

/** The tag through which a tag policy decided: the first attached tag its id answers for. */
function deciding(engine: PolicyEngine, policyId: number, req: AccessRequest, kind: 'mask' | 'filter'): string | undefined {
  const tags = req.tags ?? engine.policiesFor(req).tags;
  for (const t of tags) {
    const one = { ...req, tags: [t] };
    const r = kind === 'mask' ? engine.evalDataMask(one, 'tag') : engine.evalRowFilter(one, 'tag');
    if (r.policyId === policyId) return t.type;
  }
  return undefined;
}

/** Why no row is shown when a mask policy excludes columns. */
export const EXCLUDING_MASK = 'a mask policy on the table excludes columns (isExcludes on its column resource): no row is shown rather than the excluded columns unmasked';

/** Why an older snapshot's column that the current schema no longer has is restricted. */
export const DROPPED = 'the column is no longer in the table (dropped since this snapshot)';

/**
 * The decision for one table. `columnTags`: column → tags (undefined: none
 * known; null: the tag state could not be read, so no row may be shown).
 * Each column is decided by the name policies know it by (policyNameOf: an
 * older snapshot's column by its current name).
 */
export function decideTable(
  engine: PolicyEngine | null,
  subject: Subject,
  table: CatalogTable,
  columnTags: ColumnTags | null | undefined,
  opts: DecideOptions,
): TableDecision {
  if (!engine) return { visible: false, reason: 'no usable policy set (never loaded, or stale past the allowed staleness)' };
  const resource = table.resource;
  if (!validResource(resource)) return { visible: false, reason: 'the table maps to no policy resource' };
  const reqs = new Requests(engine, subject, resource);
  const tagged = columnTags ?? {};
  // Keys are column names from the catalog or a file: never read through Object.prototype.
  const tagsOfColumn = (name: string): readonly string[] => (Object.hasOwn(tagged, name) ? tagged[name]! : []);
  const allTags = Object.values(tagged).flat();
  const tableTags = tagsOf(allTags, 'DESCENDANT');

  const tableReq = reqs.table('select', tableTags);
  const access = engine.isAccessAllowed(tableReq);
  const accessAudit: AccessAudit = { policyId: access.policyId, policyVersion: access.policyVersion, audited: access.isAudited, zoneName: access.zoneName };
  if (!access.isAllowed) return { visible: false, reason: 'select is not allowed on the table', access: accessAudit };

  const rowFilters: RowFilterDecision[] = [];
  const filterResource = engine.evalRowFilter(tableReq, 'resource');
  const filterTag = engine.evalRowFilter(tableReq, 'tag');
  // Row filters AND together: the resource policy's and the tag policies' winner both apply.
  if (filterResource.filterExpr !== null) rowFilters.push({ expr: filterResource.filterExpr, policy: ref(engine, filterResource.policyId), audited: filterResource.isAudited });
  if (filterTag.filterExpr !== null && filterTag.policyId !== filterResource.policyId) {
    rowFilters.push({ expr: filterTag.filterExpr, policy: ref(engine, filterTag.policyId, deciding(engine, filterTag.policyId, tableReq, 'filter')), audited: filterTag.isAudited });
  }

  const columns: ColumnDecision[] = table.columns.map((c) => {
    const policyName = policyNameOf(c);
    const kept = c.pgType ? { pgType: c.pgType } : {};
    if (policyName === null) {
      // A field the table no longer has (an older snapshot's dropped column): no policy names it, so none may allow it.
      return { name: c.name, policyName, duckType: c.duckType, ...kept, readable: false, denyPolicy: null, mask: null, restriction: DROPPED };
    }
    const colReq = reqs.column(policyName, tagsOf(tagsOfColumn(policyName), 'SELF'));
    const colAccess = engine.isAccessAllowed(colReq);
    if (!colAccess.isAllowed) {
      return { name: c.name, policyName, duckType: c.duckType, ...kept, readable: false, denyPolicy: ref(engine, colAccess.policyId), audited: colAccess.isAudited, mask: null };
    }
    const won = combine(
      engine.evalDataMask(colReq, 'resource'),
      engine.evalDataMask(colReq, 'tag'),
      (m) => m.maskType !== null,
      opts.maskPrecedence,
      (m) => usableMask(engine, m),
    );
    const mask: MaskDecision | null = won
      ? {
          type: won.result.maskType!,
          transformer: won.result.transformer,
          valueExpr: won.result.maskedValue,
          policy: ref(engine, won.result.policyId, won.fromTag ? deciding(engine, won.result.policyId, colReq, 'mask') : undefined),
          audited: won.result.isAudited,
        }
      : null;
    return { name: c.name, policyName, duckType: c.duckType, ...kept, readable: true, denyPolicy: null, mask };
  });

  const admin = engine.isAccessAllowed({ ...reqs.table('_admin', []), resourceMatchingScope: 'SELF' }).isAllowed;
  // A mask policy naming the columns it does not mask: SQE fails closed on it (no row), where Ranger would mask
  // every other column and leave the excluded ones raw.
  const excluding = engine.maskPoliciesExcluding(tableReq, 'column')[0];
  const noRows = columnTags === null ? 'the column tags of the table could not be read' : excluding ? EXCLUDING_MASK : null;
  return {
    visible: true,
    resource,
    accessPolicy: access.policyId >= 0 ? ref(engine, access.policyId) : null,
    access: accessAudit,
    rowFilters,
    noRows,
    ...(excluding && columnTags !== null ? { noRowsPolicy: { policy: ref(engine, excluding.policyId), audited: excluding.isAudited } } : {}),
    columns,
    admin,
  };
}
