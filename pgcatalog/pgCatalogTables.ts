/**
 * Shapes and rows of the emulated pg_catalog tables. Column lists follow
 * PostgreSQL 16 (so `SELECT *` and clients reading by position see the same
 * columns); OIDs are PostgreSQL's, types come from sql/pgTypes.ts.
 */
import { stableOid } from '../sql/oids.js';
import {
  INFORMATION_SCHEMA_NSP_OID,
  OWNER_OID,
  PG_CATALOG_NSP_OID,
  PG_CATALOG_RELATIONS,
  INFORMATION_SCHEMA_RELATIONS,
  PUBLIC_NSP_OID,
} from '../sql/emulation.js';
import { namespaceOid, relationOid } from '../sql/regTypes.js';
import { PG_BASE_TYPES, PG_JSONB, pgTypeForDuckDB, type PgTypeInfo } from '../sql/pgTypes.js';
import type { CatalogTable } from '../sql/catalogView.js';

export type Value = string | number | boolean | null | readonly (string | number)[];

export interface TableDef {
  name: string;
  /** DuckDB column definitions; oid columns are BIGINT (unsigned 32-bit in PostgreSQL) */
  columns: string;
  rows: Value[][];
}

const OID = 'BIGINT';

/** Types clients reference that DuckDB has no equivalent of: kept here, not in the DuckDB→PG map. */
const PG_ONLY_TYPES: readonly { oid: number; typname: string; formatted: string; len: number; category: string; typtype?: string }[] = [
  { oid: 18, typname: 'char', formatted: '"char"', len: 1, category: 'Z' },
  { oid: 22, typname: 'int2vector', formatted: 'int2vector', len: -1, category: 'A' },
  { oid: 24, typname: 'regproc', formatted: 'regproc', len: 4, category: 'N' },
  { oid: 28, typname: 'xid', formatted: 'xid', len: 4, category: 'U' },
  { oid: 30, typname: 'oidvector', formatted: 'oidvector', len: -1, category: 'A' },
  { oid: 194, typname: 'pg_node_tree', formatted: 'pg_node_tree', len: -1, category: 'Z' },
  { oid: 705, typname: 'unknown', formatted: 'unknown', len: -2, category: 'X', typtype: 'p' },
  { oid: 1033, typname: 'aclitem', formatted: 'aclitem', len: 12, category: 'U' },
  { oid: 1042, typname: 'bpchar', formatted: 'character', len: -1, category: 'S' },
  { oid: 2205, typname: 'regclass', formatted: 'regclass', len: 4, category: 'N' },
  { oid: 2206, typname: 'regtype', formatted: 'regtype', len: 4, category: 'N' },
  { oid: 2249, typname: 'record', formatted: 'record', len: -1, category: 'P', typtype: 'p' },
  { oid: 2278, typname: 'void', formatted: 'void', len: 4, category: 'P', typtype: 'p' },
  { oid: 4089, typname: 'regnamespace', formatted: 'regnamespace', len: 4, category: 'N' },
];

const CATEGORY: Record<string, string> = {
  bool: 'B', int2: 'N', int4: 'N', int8: 'N', float4: 'N', float8: 'N', numeric: 'N', oid: 'N', text: 'S',
  varchar: 'S', name: 'S', date: 'D', time: 'D', timetz: 'D', timestamp: 'D', timestamptz: 'D', interval: 'T',
  bit: 'V', varbit: 'V', bytea: 'U', json: 'U', jsonb: 'U', uuid: 'U',
};
/** pg_type.typispreferred: the preferred type of each category. */
const PREFERRED = new Set(['bool', 'text', 'oid', 'float8', 'timestamptz', 'interval', 'varbit']);
/** typalign where it does not follow from typlen. */
const ALIGN: Record<string, string> = { name: 'c', uuid: 'c', interval: 'd', timetz: 'd' };
const UNDERSCORED_IO = new Set([
  'json', 'jsonb', 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'bit', 'varbit', 'numeric', 'uuid', 'record', 'void',
  'pg_node_tree',
]);
/** Types PostgreSQL has no binary I/O for (typreceive and typsend are '-'). */
const NO_BINARY_IO = new Set(['aclitem']);
const DEFAULT_COLLATION = 100;
const C_COLLATION = 950;
/** typcollation: text types sort by the default collation; name by C. */
const COLLATION: Record<string, number> = { text: DEFAULT_COLLATION, varchar: DEFAULT_COLLATION, bpchar: DEFAULT_COLLATION, name: C_COLLATION };

interface TypeShape {
  oid: number;
  typname: string;
  formatted: string;
  len: number;
  typtype: string;
  category: string;
  elem: number;
  array: number;
}

const alignOf = (typname: string, len: number): string =>
  ALIGN[typname] ?? (len === 8 ? 'd' : len === 2 ? 's' : len === 1 ? 'c' : 'i');

function typeRow(t: TypeShape, elemName?: string, elemLen = 0): Value[] {
  const isArray = elemName !== undefined;
  // PostgreSQL's I/O function names: int4in, but numeric_in, array_in (pgJDBC tests typinput = 'array_in')
  const io = isArray ? 'array_' : UNDERSCORED_IO.has(t.typname) ? `${t.typname}_` : t.typname;
  const align = isArray ? (alignOf(elemName, elemLen) === 'd' ? 'd' : 'i') : alignOf(t.typname, t.len);
  const storage = t.typname === 'numeric' ? 'm' : t.len === -1 ? 'x' : 'p';
  return [
    t.oid, t.typname, PG_CATALOG_NSP_OID, OWNER_OID, t.len, t.len > 0 && t.len <= 8, t.typtype, t.category,
    PREFERRED.has(t.typname), true, ',', 0, isArray ? 'array_subscript_handler' : t.typname === 'name' ? 'raw_array_subscript_handler' : '-',
    t.elem, t.array, `${io}in`, `${io}out`, NO_BINARY_IO.has(t.typname) ? '-' : `${io}recv`, NO_BINARY_IO.has(t.typname) ? '-' : `${io}send`,
    '-', '-', '-', align, storage, false, 0, -1, 0,
    COLLATION[elemName ?? t.typname] ?? 0, null, null, null,
  ];
}

/** Every type: [oid, formatted] for format_type, plus the pg_type rows. */
export function typeRows(): { names: Value[][]; rows: Value[][] } {
  const names: Value[][] = [];
  const rows: Value[][] = [];
  for (const t of PG_BASE_TYPES) {
    const elem = t.typname === 'name' ? 18 : 0; // name is subscriptable as char[]
    rows.push(typeRow({ ...t, typtype: 'b', category: CATEGORY[t.typname] ?? 'U', elem, array: t.arrayOid }));
    rows.push(
      typeRow(
        { oid: t.arrayOid, typname: `_${t.typname}`, formatted: `${t.formatted}[]`, len: -1, typtype: 'b', category: 'A', elem: t.oid, array: 0 },
        t.typname,
        t.len,
      ),
    );
    names.push([t.oid, t.formatted], [t.arrayOid, `${t.formatted}[]`]);
  }
  for (const t of PG_ONLY_TYPES) {
    rows.push(typeRow({ ...t, typtype: t.typtype ?? 'b', elem: 0, array: 0 }));
    names.push([t.oid, t.formatted]);
  }
  return { names, rows };
}

/**
 * What the session user may do with a relation, as aclitem letters (`table`: r SELECT, a INSERT, w UPDATE,
 * d DELETE, D TRUNCATE) and, where the table's SELECT is withheld for some of its columns, the columns that
 * hold SELECT of their own (PostgreSQL's column grants, in attacl).
 */
export interface RelationAcl {
  table: string;
  columns: ReadonlySet<string> | null;
}

/** The session user's privileges to show in the ACL columns, granted by `owner`; nobody else's are shown. */
export interface AclGrantee {
  user: string;
  owner: string;
  acl?: (t: UserRelation) => RelationAcl;
  schemaCreate?: (schema: string) => boolean;
}

const aclItem = (g: AclGrantee, letters: string) => `${aclName(g.user)}=${letters}/${aclName(g.owner)}`;

/** With `grantee`, a user schema's nspacl is its USAGE (and CREATE where the gates allow); the system schemas keep NULL. */
export function namespaceRows(schemas: string[], grantee?: AclGrantee): Value[][] {
  const all = ['pg_catalog', 'information_schema', ...schemas.filter((s) => s !== 'pg_catalog' && s !== 'information_schema')];
  return [...new Set(all)].map((s) => {
    const system = s === 'pg_catalog' || s === 'information_schema';
    const acl = grantee && !system ? [aclItem(grantee, grantee.schemaCreate?.(s) ? 'UC' : 'U')] : null;
    return [namespaceOid(s), s, OWNER_OID, acl];
  });
}

const classRow = (oid: number, name: string, nsp: number, relkind: string, natts: number, reltype: number, acl: Value = null, persistence = 'p'): Value[] => [
  oid, name, nsp, reltype, 0, OWNER_OID, relkind === 'r' ? 2 : 0, relkind === 'r' ? oid : 0, 0, 0, -1, 0, 0, false,
  false, persistence, relkind, natts, 0, false, false, false, false, false, true, relkind === 'r' ? 'd' : 'n', false, 0, 0, 0,
  acl, null, null,
];

/** A user relation: a table (relkind r) or a view (v); `temporary`: one of the session's temporary tables (relpersistence t). */
export type UserRelation = Pick<CatalogTable, 'schema' | 'name' | 'columns'> & { relkind?: 'r' | 'v'; temporary?: boolean; comment?: string };

/** pg_description's columns (the functions' rows are global, the relations' per user). */
export const DESCRIPTION_COLUMNS = `objoid ${OID}, classoid ${OID}, objsubid INTEGER, description VARCHAR`;

/** pg_class's oid in pg_description.classoid. */
const PG_CLASS_OID = 1259;

/** pg_description rows of the relations' and their columns' comments (obj_description, col_description, psql's \d+). */
export function relationDescriptionRows(tables: UserRelation[]): Value[][] {
  const rows: Value[][] = [];
  for (const t of tables) {
    const oid = relationOid(t.schema, t.name);
    if (t.comment) rows.push([oid, PG_CLASS_OID, 0, t.comment]);
    t.columns.forEach((c, i) => {
      if (c.comment) rows.push([oid, PG_CLASS_OID, i + 1, c.comment]);
    });
  }
  return rows;
}

/**
 * `grantee`: the session user, shown holding what the gates let it do with each relation it may load (SELECT
 * without `acl`), granted by `owner`; nobody else's grants are shown. Without it relacl is NULL (the owner's
 * defaults). A relation on which the user holds no table privilege (only column ones) has an empty relacl.
 */
export function classRows(tables: UserRelation[], grantee?: AclGrantee): Value[][] {
  const relacl = (t: UserRelation): Value => {
    if (!grantee) return null;
    const letters = grantee.acl ? grantee.acl(t).table : 'r';
    return letters ? [aclItem(grantee, letters)] : [];
  };
  const rows: Value[][] = tables.map((t) =>
    classRow(relationOid(t.schema, t.name), t.name, namespaceOid(t.schema), t.relkind ?? 'r', t.columns.length, stableOid('type', t.schema, t.name), relacl(t), t.temporary ? 't' : 'p'),
  );
  for (const [name, r] of Object.entries(PG_CATALOG_RELATIONS)) rows.push(classRow(r.oid, name, PG_CATALOG_NSP_OID, r.relkind, 0, 0));
  for (const [name, r] of Object.entries(INFORMATION_SCHEMA_RELATIONS)) {
    rows.push(classRow(r.oid, name, INFORMATION_SCHEMA_NSP_OID, r.relkind, 0, 0));
  }
  return rows;
}

/** A role name in an aclitem: quoted like PostgreSQL's putid when it is not a plain identifier. */
function aclName(name: string): string {
  return /^[a-z0-9_]+$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** The session's identity as PostgreSQL roles: the user logs in, its Ranger roles and groups are roles it is a member of. */
export interface RoleIdentity {
  user: string;
  roles: readonly string[];
  groups: readonly string[];
}

export const roleOid = (name: string): number => stableOid('role', name);

const roleRow = (name: string, oid: number, login: boolean, superuser = false): Value[] => [
  name, superuser, true, superuser, superuser, login, false, -1, '********', null, superuser, null, oid,
];

/** pg_roles: the owner of every object, the session user and the roles it is a member of (nobody else). */
export function roleRows(owner: string, who?: RoleIdentity): Value[][] {
  const rows = [roleRow(owner, OWNER_OID, true, true)];
  if (!who) return rows;
  const seen = new Set([owner]);
  const add = (name: string, login: boolean) => {
    if (seen.has(name)) return;
    seen.add(name);
    rows.push(roleRow(name, roleOid(name), login));
  };
  add(who.user, true);
  for (const r of [...who.roles, ...who.groups]) add(r, false);
  return rows;
}

/** pg_auth_members: the session user is a member of each of its roles and groups, granted by the owner. */
export function authMemberRows(owner: string, who?: RoleIdentity): Value[][] {
  if (!who || who.user === owner) return [];
  const names = [...new Set([...who.roles, ...who.groups])].filter((r) => r !== who.user && r !== owner);
  return names.map((r) => [stableOid('role', 'membership', r, who.user), roleOid(r), roleOid(who.user), OWNER_OID, false, true, true]);
}

const JSONB_INFO: PgTypeInfo = { oid: PG_JSONB.oid, len: -1, typmod: -1, formatted: PG_JSONB.formatted, typname: PG_JSONB.typname };

/** attacl: NULL (the table's privileges hold), or SELECT on a readable column of a table whose SELECT is withheld. */
export function attributeRows(tables: UserRelation[], grantee?: AclGrantee): Value[][] {
  const rows: Value[][] = [];
  for (const t of tables) {
    const columns = grantee?.acl?.(t).columns ?? null;
    t.columns.forEach((c, i) => {
      const pg = c.pgType === 'jsonb' ? JSONB_INFO : pgTypeForDuckDB(c.duckType);
      const isArray = pg.typname.startsWith('_');
      const base = isArray ? pg.typname.slice(1) : pg.typname;
      const align = isArray ? 'i' : alignOf(pg.typname, pg.len);
      const storage = pg.typname === 'numeric' ? 'm' : pg.len === -1 ? 'x' : 'p';
      rows.push([
        relationOid(t.schema, t.name), c.name, pg.oid, -1, pg.len, i + 1, isArray ? 1 : 0, -1, pg.typmod,
        pg.len > 0 && pg.len <= 8, align, storage, '', !c.nullable, false, false, '', '', false, true, 0,
        COLLATION[base] ?? 0, columns?.has(c.name) ? [aclItem(grantee!, 'r')] : null, null, null, null,
      ]);
    });
  }
  return rows;
}

/** One session as pg_stat_activity shows it (the session's own user's sessions only). */
export interface BackendActivity {
  pid: number;
  user: string;
  applicationName: string;
  /** null for a Unix-domain socket, as PostgreSQL shows it */
  clientAddr: string | null;
  clientPort: number | null;
  backendStart: Date;
  xactStart: Date | null;
  queryStart: Date | null;
  stateChange: Date | null;
  /** 'active', 'idle', 'idle in transaction', 'idle in transaction (aborted)' */
  state: string;
  /** the statement running now, or the last one (empty before the first) */
  query: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** pg_stat_activity rows; `database` is the one database a process serves. */
export function activityRows(database: string, backends: readonly BackendActivity[]): Value[][] {
  const datid = stableOid('database', database);
  return backends.map((b) => [
    datid, database, b.pid, null, roleOid(b.user), b.user, b.applicationName, b.clientAddr, null, b.clientPort ?? -1,
    iso(b.backendStart), iso(b.xactStart), iso(b.queryStart), iso(b.stateChange),
    b.state === 'idle' || b.state.startsWith('idle in') ? 'Client' : null, b.state === 'idle' || b.state.startsWith('idle in') ? 'ClientRead' : null,
    b.state, null, null, null, b.query, 'client backend',
  ]);
}

export function databaseRow(database: string): Value[] {
  return [
    stableOid('database', database), database, OWNER_OID, 6, 'c', false, true, -1, 0, 0, 1663, 'C', 'C', null, null,
    null, null,
  ];
}

/** Empty system tables clients join against (psql \d, pgJDBC metadata). */
export const EMPTY_TABLES: readonly Omit<TableDef, 'rows'>[] = [
  { name: 'pg_index', columns: `indexrelid ${OID}, indrelid ${OID}, indnatts SMALLINT, indnkeyatts SMALLINT, indisunique BOOLEAN, indnullsnotdistinct BOOLEAN, indisprimary BOOLEAN, indisexclusion BOOLEAN, indimmediate BOOLEAN, indisclustered BOOLEAN, indisvalid BOOLEAN, indcheckxmin BOOLEAN, indisready BOOLEAN, indislive BOOLEAN, indisreplident BOOLEAN, indkey SMALLINT[], indcollation ${OID}[], indclass ${OID}[], indoption SMALLINT[], indexprs VARCHAR, indpred VARCHAR` },
  { name: 'pg_constraint', columns: `oid ${OID}, conname VARCHAR, connamespace ${OID}, contype VARCHAR, condeferrable BOOLEAN, condeferred BOOLEAN, convalidated BOOLEAN, conrelid ${OID}, contypid ${OID}, conindid ${OID}, conparentid ${OID}, confrelid ${OID}, confupdtype VARCHAR, confdeltype VARCHAR, confmatchtype VARCHAR, conislocal BOOLEAN, coninhcount SMALLINT, connoinherit BOOLEAN, conkey SMALLINT[], confkey SMALLINT[], conpfeqop ${OID}[], conppeqop ${OID}[], conffeqop ${OID}[], confdelsetcols SMALLINT[], conexclop ${OID}[], conbin VARCHAR` },
  { name: 'pg_attrdef', columns: `oid ${OID}, adrelid ${OID}, adnum SMALLINT, adbin VARCHAR` },
  { name: 'pg_opclass', columns: `oid ${OID}, opcmethod ${OID}, opcname VARCHAR, opcnamespace ${OID}, opcowner ${OID}, opcfamily ${OID}, opcintype ${OID}, opcdefault BOOLEAN, opckeytype ${OID}` },
  { name: 'pg_sequence', columns: `seqrelid ${OID}, seqtypid ${OID}, seqstart BIGINT, seqincrement BIGINT, seqmax BIGINT, seqmin BIGINT, seqcache BIGINT, seqcycle BOOLEAN` },
  { name: 'pg_inherits', columns: `inhrelid ${OID}, inhparent ${OID}, inhseqno INTEGER, inhdetachpending BOOLEAN` },
  { name: 'pg_policy', columns: `oid ${OID}, polname VARCHAR, polrelid ${OID}, polcmd VARCHAR, polpermissive BOOLEAN, polroles ${OID}[], polqual VARCHAR, polwithcheck VARCHAR` },
  { name: 'pg_statistic_ext', columns: `oid ${OID}, stxrelid ${OID}, stxname VARCHAR, stxnamespace ${OID}, stxowner ${OID}, stxstattarget INTEGER, stxkeys SMALLINT[], stxkind VARCHAR[], stxexprs VARCHAR` },
  { name: 'pg_publication', columns: `oid ${OID}, pubname VARCHAR, pubowner ${OID}, puballtables BOOLEAN, pubinsert BOOLEAN, pubupdate BOOLEAN, pubdelete BOOLEAN, pubtruncate BOOLEAN, pubviaroot BOOLEAN` },
  { name: 'pg_publication_namespace', columns: `oid ${OID}, pnpubid ${OID}, pnnspid ${OID}` },
  { name: 'pg_publication_rel', columns: `oid ${OID}, prpubid ${OID}, prrelid ${OID}, prqual VARCHAR, prattrs SMALLINT[]` },
  { name: 'pg_rewrite', columns: `oid ${OID}, rulename VARCHAR, ev_class ${OID}, ev_type VARCHAR, ev_enabled VARCHAR, is_instead BOOLEAN, ev_qual VARCHAR, ev_action VARCHAR` },
  { name: 'pg_depend', columns: `classid ${OID}, objid ${OID}, objsubid INTEGER, refclassid ${OID}, refobjid ${OID}, refobjsubid INTEGER, deptype VARCHAR` },
  { name: 'pg_enum', columns: `oid ${OID}, enumtypid ${OID}, enumsortorder REAL, enumlabel VARCHAR` },
  { name: 'pg_extension', columns: `oid ${OID}, extname VARCHAR, extowner ${OID}, extnamespace ${OID}, extrelocatable BOOLEAN, extversion VARCHAR, extconfig ${OID}[], extcondition VARCHAR[]` },
  { name: 'pg_matviews', columns: 'schemaname VARCHAR, matviewname VARCHAR, matviewowner VARCHAR, tablespace VARCHAR, hasindexes BOOLEAN, ispopulated BOOLEAN, definition VARCHAR' },
  { name: 'pg_indexes', columns: 'schemaname VARCHAR, tablename VARCHAR, indexname VARCHAR, tablespace VARCHAR, indexdef VARCHAR' },
  // object kinds lakegate has none of: psql's \dC, \do, \dF*, \dc, \dA*, \des, \dew, \det, \deu, \dy, \drds, \dRs, \ddp
  // and pgcli's completion read them and list nothing, as PostgreSQL does for a kind a database has none of
  { name: 'pg_cast', columns: `oid ${OID}, castsource ${OID}, casttarget ${OID}, castfunc ${OID}, castcontext VARCHAR, castmethod VARCHAR` },
  { name: 'pg_operator', columns: `oid ${OID}, oprname VARCHAR, oprnamespace ${OID}, oprowner ${OID}, oprkind VARCHAR, oprcanmerge BOOLEAN, oprcanhash BOOLEAN, oprleft ${OID}, oprright ${OID}, oprresult ${OID}, oprcom ${OID}, oprnegate ${OID}, oprcode VARCHAR, oprrest VARCHAR, oprjoin VARCHAR` },
  { name: 'pg_opfamily', columns: `oid ${OID}, opfmethod ${OID}, opfname VARCHAR, opfnamespace ${OID}, opfowner ${OID}` },
  { name: 'pg_amop', columns: `oid ${OID}, amopfamily ${OID}, amoplefttype ${OID}, amoprighttype ${OID}, amopstrategy SMALLINT, amoppurpose VARCHAR, amopopr ${OID}, amopmethod ${OID}, amopsortfamily ${OID}` },
  { name: 'pg_amproc', columns: `oid ${OID}, amprocfamily ${OID}, amproclefttype ${OID}, amprocrighttype ${OID}, amprocnum SMALLINT, amproc VARCHAR` },
  { name: 'pg_conversion', columns: `oid ${OID}, conname VARCHAR, connamespace ${OID}, conowner ${OID}, conforencoding INTEGER, contoencoding INTEGER, conproc VARCHAR, condefault BOOLEAN` },
  { name: 'pg_ts_config', columns: `oid ${OID}, cfgname VARCHAR, cfgnamespace ${OID}, cfgowner ${OID}, cfgparser ${OID}` },
  { name: 'pg_ts_config_map', columns: `mapcfg ${OID}, maptokentype INTEGER, mapseqno INTEGER, mapdict ${OID}` },
  { name: 'pg_ts_dict', columns: `oid ${OID}, dictname VARCHAR, dictnamespace ${OID}, dictowner ${OID}, dicttemplate ${OID}, dictinitoption VARCHAR` },
  { name: 'pg_ts_parser', columns: `oid ${OID}, prsname VARCHAR, prsnamespace ${OID}, prsstart VARCHAR, prstoken VARCHAR, prsend VARCHAR, prsheadline VARCHAR, prslextype VARCHAR` },
  { name: 'pg_ts_template', columns: `oid ${OID}, tmplname VARCHAR, tmplnamespace ${OID}, tmplinit VARCHAR, tmpllexize VARCHAR` },
  { name: 'pg_foreign_data_wrapper', columns: `oid ${OID}, fdwname VARCHAR, fdwowner ${OID}, fdwhandler ${OID}, fdwvalidator ${OID}, fdwacl VARCHAR[], fdwoptions VARCHAR[]` },
  { name: 'pg_foreign_server', columns: `oid ${OID}, srvname VARCHAR, srvowner ${OID}, srvfdw ${OID}, srvtype VARCHAR, srvversion VARCHAR, srvacl VARCHAR[], srvoptions VARCHAR[]` },
  { name: 'pg_foreign_table', columns: `ftrelid ${OID}, ftserver ${OID}, ftoptions VARCHAR[]` },
  { name: 'pg_user_mappings', columns: `umid ${OID}, srvid ${OID}, srvname VARCHAR, umuser ${OID}, usename VARCHAR, umoptions VARCHAR[]` },
  { name: 'pg_event_trigger', columns: `oid ${OID}, evtname VARCHAR, evtevent VARCHAR, evtowner ${OID}, evtfoid ${OID}, evtenabled VARCHAR, evttags VARCHAR[]` },
  { name: 'pg_trigger', columns: `oid ${OID}, tgrelid ${OID}, tgparentid ${OID}, tgname VARCHAR, tgfoid ${OID}, tgtype SMALLINT, tgenabled VARCHAR, tgisinternal BOOLEAN, tgconstrrelid ${OID}, tgconstrindid ${OID}, tgconstraint ${OID}, tgdeferrable BOOLEAN, tginitdeferred BOOLEAN, tgnargs SMALLINT, tgattr SMALLINT[], tgargs BLOB, tgqual VARCHAR, tgoldtable VARCHAR, tgnewtable VARCHAR` },
  { name: 'pg_db_role_setting', columns: `setdatabase ${OID}, setrole ${OID}, setconfig VARCHAR[]` },
  { name: 'pg_default_acl', columns: `oid ${OID}, defaclrole ${OID}, defaclnamespace ${OID}, defaclobjtype VARCHAR, defaclacl VARCHAR[]` },
  { name: 'pg_subscription', columns: `oid ${OID}, subdbid ${OID}, subskiplsn VARCHAR, subname VARCHAR, subowner ${OID}, subenabled BOOLEAN, subbinary BOOLEAN, substream BOOLEAN, subtwophasestate VARCHAR, subdisableonerr BOOLEAN, subconninfo VARCHAR, subslotname VARCHAR, subsynccommit VARCHAR, subpublications VARCHAR[]` },
  { name: 'pg_transform', columns: `oid ${OID}, trftype ${OID}, trflang ${OID}, trffromsql VARCHAR, trftosql VARCHAR` },
  { name: 'pg_range', columns: `rngtypid ${OID}, rngsubtype ${OID}, rngmultitypid ${OID}, rngcollation ${OID}, rngsubopc ${OID}, rngcanonical VARCHAR, rngsubdiff VARCHAR` },
];

export const POPULATED_COLUMNS = {
  pg_stat_activity: `datid ${OID}, datname VARCHAR, pid INTEGER, leader_pid INTEGER, usesysid ${OID}, usename VARCHAR, application_name VARCHAR, client_addr VARCHAR, client_hostname VARCHAR, client_port INTEGER, backend_start TIMESTAMPTZ, xact_start TIMESTAMPTZ, query_start TIMESTAMPTZ, state_change TIMESTAMPTZ, wait_event_type VARCHAR, wait_event VARCHAR, state VARCHAR, backend_xid BIGINT, backend_xmin BIGINT, query_id BIGINT, query VARCHAR, backend_type VARCHAR`,
  pg_proc: `oid ${OID}, proname VARCHAR, pronamespace ${OID}, proowner ${OID}, prolang ${OID}, procost REAL, prorows REAL, provariadic ${OID}, prosupport VARCHAR, prokind VARCHAR, prosecdef BOOLEAN, proleakproof BOOLEAN, proisstrict BOOLEAN, proretset BOOLEAN, provolatile VARCHAR, proparallel VARCHAR, pronargs SMALLINT, pronargdefaults SMALLINT, prorettype ${OID}, proargtypes VARCHAR, proallargtypes ${OID}[], proargmodes VARCHAR[], proargnames VARCHAR[], proargdefaults VARCHAR, protrftypes ${OID}[], prosrc VARCHAR, probin VARCHAR, prosqlbody VARCHAR, proconfig VARCHAR[], proacl VARCHAR[]`,
  pg_language: `oid ${OID}, lanname VARCHAR, lanowner ${OID}, lanispl BOOLEAN, lanpltrusted BOOLEAN, lanplcallfoid ${OID}, laninline ${OID}, lanvalidator ${OID}, lanacl VARCHAR[]`,
  pg_tablespace: `oid ${OID}, spcname VARCHAR, spcowner ${OID}, spcacl VARCHAR[], spcoptions VARCHAR[]`,
  pg_auth_members: `oid ${OID}, roleid ${OID}, member ${OID}, grantor ${OID}, admin_option BOOLEAN, inherit_option BOOLEAN, set_option BOOLEAN`,
  pg_namespace: `oid ${OID}, nspname VARCHAR, nspowner ${OID}, nspacl VARCHAR[]`,
  pg_class: `oid ${OID}, relname VARCHAR, relnamespace ${OID}, reltype ${OID}, reloftype ${OID}, relowner ${OID}, relam ${OID}, relfilenode ${OID}, reltablespace ${OID}, relpages INTEGER, reltuples REAL, relallvisible INTEGER, reltoastrelid ${OID}, relhasindex BOOLEAN, relisshared BOOLEAN, relpersistence VARCHAR, relkind VARCHAR, relnatts SMALLINT, relchecks SMALLINT, relhasrules BOOLEAN, relhastriggers BOOLEAN, relhassubclass BOOLEAN, relrowsecurity BOOLEAN, relforcerowsecurity BOOLEAN, relispopulated BOOLEAN, relreplident VARCHAR, relispartition BOOLEAN, relrewrite ${OID}, relfrozenxid BIGINT, relminmxid BIGINT, relacl VARCHAR[], reloptions VARCHAR[], relpartbound VARCHAR`,
  pg_attribute: `attrelid ${OID}, attname VARCHAR, atttypid ${OID}, attstattarget INTEGER, attlen SMALLINT, attnum SMALLINT, attndims SMALLINT, attcacheoff INTEGER, atttypmod INTEGER, attbyval BOOLEAN, attalign VARCHAR, attstorage VARCHAR, attcompression VARCHAR, attnotnull BOOLEAN, atthasdef BOOLEAN, atthasmissing BOOLEAN, attidentity VARCHAR, attgenerated VARCHAR, attisdropped BOOLEAN, attislocal BOOLEAN, attinhcount SMALLINT, attcollation ${OID}, attacl VARCHAR[], attoptions VARCHAR[], attfdwoptions VARCHAR[], attmissingval VARCHAR`,
  pg_type: `oid ${OID}, typname VARCHAR, typnamespace ${OID}, typowner ${OID}, typlen SMALLINT, typbyval BOOLEAN, typtype VARCHAR, typcategory VARCHAR, typispreferred BOOLEAN, typisdefined BOOLEAN, typdelim VARCHAR, typrelid ${OID}, typsubscript VARCHAR, typelem ${OID}, typarray ${OID}, typinput VARCHAR, typoutput VARCHAR, typreceive VARCHAR, typsend VARCHAR, typmodin VARCHAR, typmodout VARCHAR, typanalyze VARCHAR, typalign VARCHAR, typstorage VARCHAR, typnotnull BOOLEAN, typbasetype ${OID}, typtypmod INTEGER, typndims INTEGER, typcollation ${OID}, typdefaultbin VARCHAR, typdefault VARCHAR, typacl VARCHAR[]`,
  pg_database: `oid ${OID}, datname VARCHAR, datdba ${OID}, encoding INTEGER, datlocprovider VARCHAR, datistemplate BOOLEAN, datallowconn BOOLEAN, datconnlimit INTEGER, datfrozenxid BIGINT, datminmxid BIGINT, dattablespace ${OID}, datcollate VARCHAR, datctype VARCHAR, daticulocale VARCHAR, daticurules VARCHAR, datcollversion VARCHAR, datacl VARCHAR[]`,
  pg_am: `oid ${OID}, amname VARCHAR, amhandler VARCHAR, amtype VARCHAR`,
  pg_collation: `oid ${OID}, collname VARCHAR, collnamespace ${OID}, collowner ${OID}, collprovider VARCHAR, collisdeterministic BOOLEAN, collencoding INTEGER, collcollate VARCHAR, collctype VARCHAR, colliculocale VARCHAR, collicurules VARCHAR, collversion VARCHAR`,
  pg_roles: `rolname VARCHAR, rolsuper BOOLEAN, rolinherit BOOLEAN, rolcreaterole BOOLEAN, rolcreatedb BOOLEAN, rolcanlogin BOOLEAN, rolreplication BOOLEAN, rolconnlimit INTEGER, rolpassword VARCHAR, rolvaliduntil TIMESTAMPTZ, rolbypassrls BOOLEAN, rolconfig VARCHAR[], oid ${OID}`,
  pg_user: `usename VARCHAR, usesysid ${OID}, usecreatedb BOOLEAN, usesuper BOOLEAN, userepl BOOLEAN, usebypassrls BOOLEAN, passwd VARCHAR, valuntil TIMESTAMPTZ, useconfig VARCHAR[]`,
} as const;

export const TABLESPACE_ROWS: Value[][] = [
  [1663, 'pg_default', OWNER_OID, null, null],
  [1664, 'pg_global', OWNER_OID, null, null],
];

export const AM_ROWS: Value[][] = [
  [2, 'heap', 'heap_tableam_handler', 't'],
  [403, 'btree', 'bthandler', 'i'],
  [405, 'hash', 'hashhandler', 'i'],
];

export const COLLATION_ROWS: Value[][] = [
  [100, 'default', PG_CATALOG_NSP_OID, OWNER_OID, 'd', true, -1, null, null, null, null, null],
  [950, 'C', PG_CATALOG_NSP_OID, OWNER_OID, 'c', true, -1, 'C', 'C', null, null, null],
  [951, 'POSIX', PG_CATALOG_NSP_OID, OWNER_OID, 'c', true, -1, 'POSIX', 'POSIX', null, null, null],
];

export { PUBLIC_NSP_OID };
