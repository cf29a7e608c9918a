/**
 * The registry of PostgreSQL functions (sql/dialect/registry.ts), walked:
 * every name the allowlist admits has its entry or is a plain DuckDB
 * function on the pass-through list; the emulation's tables and pg_proc's
 * rows agree with it; every entry is run against PostgreSQL's answer by a
 * test, is a deliberate difference, or is a known gap counted here; and the
 * cases where the order of the rewrites decides the answer keep it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_PROC_ROWS } from '../../pgcatalog/pgBuiltins.js';
import { CORPUS } from '../../tests/fidelity/corpus.js';
import { KNOWN_DIFFERENCES } from '../../tests/fidelity/known.js';
import type { RelationCatalog } from '../catalogView.js';
import { EMULATED_FUNCTIONS, EMULATED_TABLE_FUNCTIONS } from '../emulation.js';
import { SqlError } from '../errors.js';
import { ALLOWED_FUNCTION_NAMES, ALLOWED_OPERATORS, DIALECT_FUNCTIONS, DIALECT_OPERATORS, DUCKDB_BUILTINS, FOLDED_FUNCTIONS, RENAMED_FUNCTIONS } from '../functions.js';
import { loadParser, parseStatements } from '../parse.js';
import { planQuery, type QueryContext } from '../query.js';
import { BUILTIN_FUNCTIONS, BUILTIN_OPERATORS } from './builtin.js';
import { builtinMacroStatements } from './builtinMacros.js';
import { FORMAT_FUNCTIONS } from './format.js';
import { formatMacroStatements } from './formatMacros.js';
import { JSON_FUNCTIONS, JSON_OPERATORS } from './json.js';
import { jsonMacroStatements } from './jsonMacros.js';
import { numericMacroStatements } from './numericMacros.js';
import { CAST_REGISTRY, FUNCTION_REGISTRY, OPERATOR_REGISTRY, PHASE_RANK, rewritesOf, type Phase } from './registry.js';
import { PHASES } from './rule.js';
import { TRINO_RENDERINGS } from './trino.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const phasesOf = (name: string): Phase[] => (FUNCTION_REGISTRY.get(name)?.rewrites ?? []).map((r) => r.phase);

/** Allowed names that reach DuckDB by their own name (or RENAMED_FUNCTIONS') with no rewrite: DuckDB's namesake behaves as PostgreSQL's. */
const PASS_THROUGH: ReadonlySet<string> = new Set(DUCKDB_BUILTINS.filter((n) => !FUNCTION_REGISTRY.has(n)));

/** Entries the allowlist does not admit: reached only through the planner's own nodes, never from user SQL. */
const NOT_ADMITTED = ['jsonb_object_keys'];

describe('every function the allowlist admits has one entry or passes through', () => {
  test('an entry, or a DuckDB built-in on the pass-through list', () => {
    const orphans = [...ALLOWED_FUNCTION_NAMES].filter((n) => !FUNCTION_REGISTRY.has(n) && !PASS_THROUGH.has(n));
    expect(orphans).toEqual([]);
    // the allowlist, counted: a function admitted without an entry or a place on the pass-through list fails above
    expect(ALLOWED_FUNCTION_NAMES.size).toBe(269);
    // the pass-through list, counted: a name added to it without an entry shows here
    expect(PASS_THROUGH.size).toBe(87);
  });

  test('every entry is admitted, but the ones the planner alone reaches', () => {
    expect([...FUNCTION_REGISTRY.keys()].filter((n) => !ALLOWED_FUNCTION_NAMES.has(n)).sort()).toEqual(NOT_ADMITTED);
  });

  test('one entry per name, its rewrites in PHASES order, none at rename itself', () => {
    for (const entry of FUNCTION_REGISTRY.values()) {
      const ranks = entry.rewrites.map((r) => PHASE_RANK[r.phase]);
      expect([entry.name, ranks]).toEqual([entry.name, [...ranks].sort((a, b) => a - b)]);
      expect(entry.rewrites.some((r) => r.phase === 'rename')).toBe(false);
      expect(entry.display).toBe(entry.name);
      // the Trino printer's renderings fill the second slot (sql/trino/print.test.ts holds them to its documented list)
      expect(Object.keys(entry.engines)).toEqual(Object.hasOwn(TRINO_RENDERINGS, entry.name) ? ['trino'] : []);
    }
  });

  test('the phase order the former chain of tests had', () => {
    expect(PHASES).toEqual([
      'distinctOrder', 'jsonbLiterals', 'datePart', 'json', 'format', 'toTimestamp', 'builtin', 'fold', 'emulation',
      'boolMinMax', 'typedAggregate', 'exactStatistic', 'statisticClauses', 'typedAggregateClauses', 'round', 'mod',
      'sign', 'ntile', 'gcd', 'sizeGuard', 'byteaLength', 'rename', 'series',
    ]);
  });
});

describe("the emulation's tables and pg_proc agree with the registry", () => {
  const has = (phase: Phase) => (name: string) => phasesOf(name).includes(phase);

  test('names none of which reaches DuckDB by its own name each have the rewrite that translates them', () => {
    expect([...JSON_FUNCTIONS].filter((n) => !has('json')(n))).toEqual([]);
    expect([...FORMAT_FUNCTIONS].filter((n) => !has('format')(n))).toEqual([]);
    expect([...BUILTIN_FUNCTIONS].filter((n) => !has('builtin')(n))).toEqual([]);
    expect([...FOLDED_FUNCTIONS].filter((n) => !has('fold')(n))).toEqual([]);
    expect(Object.keys(EMULATED_FUNCTIONS).filter((n) => !has('emulation')(n))).toEqual([]);
    expect([...EMULATED_TABLE_FUNCTIONS].filter((n) => !has('emulation')(n))).toEqual([]);
  });

  test("the allowlist's own list of the dialect's names (sql/functions.ts, which imports no translation) is the dialect's", () => {
    expect([...DIALECT_FUNCTIONS].sort()).toEqual([...new Set([...JSON_FUNCTIONS, ...FORMAT_FUNCTIONS, ...BUILTIN_FUNCTIONS])].sort());
    expect([...DIALECT_OPERATORS].sort()).toEqual([...new Set([...JSON_OPERATORS, ...BUILTIN_OPERATORS])].sort());
  });

  test('…and the other way round: a translating rewrite serves a name of its table', () => {
    const serving = (phase: Phase) => [...FUNCTION_REGISTRY.values()].filter((e) => e.rewrites.some((r) => r.phase === phase)).map((e) => e.name).sort();
    expect(serving('json')).toEqual([...JSON_FUNCTIONS].sort());
    // derived from their modules' rules, the allowlist's json and formatting names, counted
    expect([JSON_FUNCTIONS.size, FORMAT_FUNCTIONS.size]).toEqual([19, 13]);
    expect(serving('emulation')).toEqual([...new Set([...Object.keys(EMULATED_FUNCTIONS), ...EMULATED_TABLE_FUNCTIONS])].sort());
  });

  test("a renamed function's only entry is cardinality's int4 cast, around the call renamed to len", () => {
    expect(Object.keys(RENAMED_FUNCTIONS).filter((n) => FUNCTION_REGISTRY.has(n))).toEqual(['cardinality']);
    expect(phasesOf('cardinality')).toEqual(['format']);
  });

  test("every admitted entry has PostgreSQL's pg_proc rows (pgcatalog/pgBuiltins.ts, \\df)", () => {
    const procs = new Set(PG_PROC_ROWS.map((r) => r[1]));
    // current_catalog and current_role are SQL keywords in PostgreSQL, not pg_proc rows; the *_out functions are the emulation's own
    const notFunctions = ['current_catalog', 'current_role', 'regclass_out', 'regtype_out', 'regnamespace_out'];
    expect([...FUNCTION_REGISTRY.keys()].filter((n) => ALLOWED_FUNCTION_NAMES.has(n) && !procs.has(n))).toEqual(notFunctions);
  });

  test("every macro a rewrite names is defined: by the dialect's macro text, or by the pg_catalog emulation", () => {
    const defined = new Set<string>();
    for (const build of [builtinMacroStatements, jsonMacroStatements, formatMacroStatements, numericMacroStatements]) {
      for (const sig of build((s) => s, 'S')) defined.add(/^\s*(\w+)\s*\(/.exec(sig)![1]!);
    }
    // pgcatalog/pgCatalogMacros.ts: the emulated catalog functions (their own names) and the 1 GB size guards
    const pgCatalogRoom = new Set(['lg_repeat', 'lg_lpad', 'lg_rpad', ...Object.keys(EMULATED_FUNCTIONS), ...EMULATED_TABLE_FUNCTIONS]);
    const missing = [...FUNCTION_REGISTRY.values()].flatMap((e) => e.macros.filter((m) => !defined.has(m) && !pgCatalogRoom.has(m)).map((m) => `${e.name}: ${m}`));
    expect(missing).toEqual([]);
  });
});

describe("every entry is run against PostgreSQL's answer, or is a listed difference or gap", () => {
  /** Suites that compare lakegate's answer with a real PostgreSQL's, besides the fidelity corpus. */
  const PG_COMPARED = [
    'pgcatalog/pgCatalog.diff.test.ts',
    'pgcatalog/privilegeMacros.diff.test.ts',
    'tests/integration/biTools.test.ts',
    'tests/integration/psql.test.ts',
    'tests/integration/paramTypes.test.ts',
    'tests/integration/sessionStatements.test.ts',
    'sql/write/refusals.pg.test.ts',
  ].map((f) => readFileSync(path.join(root, f), 'utf8'));
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const notDoneYet = readme.slice(readme.indexOf('## Not done yet'), readme.indexOf('\n## ', readme.indexOf('## Not done yet') + 1));
  const corpus = CORPUS.map((e) => e.sql).join('\n');
  const deliberate = Object.entries(KNOWN_DIFFERENCES).filter(([, d]) => d.kind === 'deliberate').map(([sql]) => sql).join('\n');
  const calls = (name: string) => new RegExp(`\\b${name}\\s*\\(`, 'i');

  /**
   * Entries no PostgreSQL-comparing test calls by name yet: most are catalog functions that psql's and
   * the BI tools' own catalog queries reach (tests/integration/psql.test.ts \d, biTools, dbeaver), which
   * this walk cannot see in a test's text. Closing one removes it here; a new entry without a test fails.
   */
  const KNOWN_GAPS = [
    'to_regclass', 'current_catalog', 'current_user', 'session_user', 'current_role', 'pg_get_userbyid',
    'pg_type_is_visible', 'pg_encoding_to_char', 'pg_get_indexdef', 'pg_get_viewdef', 'pg_get_partkeydef',
    'pg_get_statisticsobjdef_columns', 'pg_get_function_identity_arguments', 'pg_get_function_sqlbody', 'pg_database_size',
    'pg_get_serial_sequence', 'pg_collation_is_visible', 'pg_operator_is_visible',
    'pg_opclass_is_visible', 'pg_opfamily_is_visible', 'pg_conversion_is_visible', 'pg_statistics_obj_is_visible',
    'pg_ts_config_is_visible', 'pg_ts_dict_is_visible', 'pg_ts_parser_is_visible', 'pg_ts_template_is_visible',
    'pg_tablespace_location', 'pg_tablespace_size', 'getdatabaseencoding', 'pg_char_to_encoding', 'pg_get_functiondef',
    'pg_relation_is_publishable', 'pg_total_relation_size', 'pg_relation_size', 'pg_table_size', 'pg_indexes_size',
    'pg_size_pretty', 'obj_description', 'col_description', 'shobj_description',
    'pg_has_role', 'pg_is_other_temp_schema', 'pg_my_temp_schema', 'pg_stat_get_numscans',
    '_pg_expandarray', 'regclass_out', 'regtype_out', 'regnamespace_out', 'character_length', 'bit_length',
  ];

  const tested = (name: string): boolean =>
    calls(name).test(corpus) || PG_COMPARED.some((t) => calls(name).test(t)) || calls(name).test(deliberate) || calls(name).test(notDoneYet);

  test('the untested entries are exactly the known gaps', () => {
    const admitted = [...FUNCTION_REGISTRY.keys()].filter((n) => ALLOWED_FUNCTION_NAMES.has(n));
    expect(admitted.filter((n) => !tested(n)).sort()).toEqual([...KNOWN_GAPS].sort());
    expect(KNOWN_GAPS.length).toBe(50);
    // the fidelity corpus alone runs most of them
    expect(admitted.filter((n) => calls(n).test(corpus)).length).toBeGreaterThanOrEqual(118);
  });
});

describe('the operators the dialect emulates', () => {
  const phases = (op: string) => (OPERATOR_REGISTRY.get(op)?.rewrites ?? []).map((r) => r.phase);

  test('every operator admitted only because the dialect translates it has an entry; every entry is admitted', () => {
    expect([...JSON_OPERATORS, ...BUILTIN_OPERATORS].filter((op) => !OPERATOR_REGISTRY.has(op))).toEqual([]);
    expect([...JSON_OPERATORS].filter((op) => !phases(op).includes('json'))).toEqual([]);
    expect([...OPERATOR_REGISTRY.keys()].filter((op) => !ALLOWED_OPERATORS.has(op))).toEqual([]);
    for (const e of OPERATOR_REGISTRY.values()) expect([e.display, e.engines]).toEqual([`operator ${e.name}`, {}]);
  });

  test('each is run against PostgreSQL by the fidelity corpus, but != (<> is)', () => {
    const corpus = CORPUS.map((e) => e.sql).join('\n');
    const written = (op: string) => corpus.includes(` ${op} `) || corpus.includes(`${op}(`) || corpus.includes(` ${op}'`);
    expect([...OPERATOR_REGISTRY.keys()].filter((op) => !written(op))).toEqual(['!=']);
  });

  test('the order the former tests had: jsonb equality, then the built-in forms, then json', () => {
    expect(phases('@>')).toEqual(['builtin', 'json']);
    // jsonb's equality first; then regtype = regtype compares the OIDs (sql/dialect/builtin.ts)
    expect(phases('=')).toEqual(['jsonbEquality', 'builtin']);
    // the former switch took its first `-` (jsonb's) and never the arithmetic one: `-` types no literal here
    expect(OPERATOR_REGISTRY.get('-')!.rewrites).toHaveLength(1);
    expect(phases('+')).toEqual(['builtin']);
  });
});

describe('the casts the dialect emulates', () => {
  const phases = (t: string) => (CAST_REGISTRY.get(t)?.rewrites ?? []).map((r) => r.phase);

  test('no rule stands at the generic steps (known, typmod): those are every cast\'s', () => {
    for (const e of CAST_REGISTRY.values()) {
      expect([e.name, e.rewrites.filter((r) => r.phase === 'known' || r.phase === 'typmod')]).toEqual([e.name, []]);
      expect([e.display, e.engines]).toEqual([`cast to ${e.name}`, {}]);
    }
  });

  test('each cast target is run against PostgreSQL by the corpus or a PostgreSQL-comparing suite, or is a known gap', () => {
    const texts = [CORPUS.map((e) => e.sql).join('\n'), ...['tests/integration/psql.test.ts', 'pgcatalog/pgCatalog.diff.test.ts'].map((f) => readFileSync(path.join(root, f), 'utf8'))];
    const cast = (t: string) => new RegExp(`(::|\\bas\\s+)${t}\\b`, 'i');
    // no PostgreSQL-comparing test casts to these yet (regoper, regoperator and regprocedure have no test at all)
    const KNOWN_CAST_GAPS = ['name', 'regnamespace', 'regoper', 'regoperator', 'regprocedure'];
    expect([...CAST_REGISTRY.keys()].filter((t) => !texts.some((x) => cast(t).test(x))).sort()).toEqual([...KNOWN_CAST_GAPS].sort());
  });

  test('the order the former cast steps had, for the types several apply to', () => {
    expect(phases('text')).toEqual(['regText', 'arrayText', 'zone']);
    expect(phases('varchar')).toEqual(['regText', 'arrayText', 'zone', 'width']);
    expect(phases('timestamptz')).toEqual(['inputText', 'zone']);
    expect(phases('bit')).toEqual(['bits', 'bits']);
  });
});

describe('where the order of the rewrites decides, the registry answers as the chain of tests did', () => {
  const catalog: RelationCatalog = {
    listSchemas: () => ['sales'],
    getTable: (schema, name) =>
      schema === 'sales' && name === 'orders'
        ? {
            schema,
            name,
            columns: [
              { name: 'id', duckType: 'INTEGER', nullable: true },
              { name: 'ok', duckType: 'BOOLEAN', nullable: true },
            ],
            resource: { database: schema, table: name },
            scan: () => ({ RangeVar: { catalogname: 'demo', schemaname: schema, relname: name, inh: true, relpersistence: 'p' } }),
          }
        : undefined,
  };
  const ctx: QueryContext = { database: 'demo', searchPath: ['sales'], user: 'alice', settings: (n) => ({ timezone: 'UTC' })[n], backendPid: 1, catalog };
  const sql = (text: string) => planQuery(parseStatements(text)[0]!, ctx).sql;

  beforeAll(async () => {
    await loadParser();
  });

  test('round: builtin rounds to n places first; the numeric cast of round(x::numeric, n) only when it declines', () => {
    expect(phasesOf('round')).toEqual(['builtin', 'round']);
    expect(sql('select round(id, 2) from orders')).toContain('lg_round_n(id, 2, id)');
    expect(sql('select round(id::numeric, 2) from orders')).toContain('CAST(lakegate_pg.pgc.lg_num_text(id) AS numeric(38, 2))');
  });

  test("sum / avg of an untyped literal: builtin's 42725 before the typed aggregate", () => {
    expect(phasesOf('sum')).toEqual(['builtin', 'typedAggregate', 'typedAggregateClauses']);
    expect(() => sql("select sum('1')")).toThrow(SqlError);
    expect(sql('select sum(distinct id) from orders')).toContain('lg_sum_as(sum(DISTINCT id), id)');
  });

  test("octet_length and length: format's int4 cast first, then (met again inside the cast) builtin's and byteaLength's", () => {
    expect(phasesOf('octet_length')).toEqual(['format', 'builtin']);
    expect(phasesOf('length')).toEqual(['format', 'byteaLength']);
    expect(sql("select octet_length('abc')")).toContain("(lakegate_pg.pgc.lg_octet_length('abc'))::int4");
    expect(sql("select length('\\x01'::bytea)")).toContain('(octet_length(unhex(');
  });

  test('has_table_privilege: the constant relation resolved by fold, then the emulation with the search path', () => {
    expect(phasesOf('has_table_privilege')).toEqual(['fold', 'emulation']);
    expect(sql("select has_table_privilege('orders', 'select')")).toMatch(/lakegate_pg\.pgc\.has_table_privilege\(\d+, 'select', ARRAY\['pg_catalog', 'sales'\]\)/);
  });

  test('min / max: the boolean probe goes in, and the call still reaches rename (its qualifier dropped)', () => {
    expect(phasesOf('min')).toEqual(['boolMinMax']);
    expect(sql('select pg_catalog.min(id) from orders')).toContain('SELECT min(lakegate_pg.pgc.lg_min_nb(id, id))');
  });

  test('generate_series: builtin retypes dates, rename, then series makes rows of the list', () => {
    expect(phasesOf('generate_series')).toEqual(['builtin', 'series']);
    expect(sql("select generate_series('2024-01-01'::date, '2024-01-03'::date, '1 day')")).toContain(
      "unnest(generate_series(lakegate_pg.pgc.lg_date_tz('2024-01-01'::date, 'UTC', '2024-01-01'::date)",
    );
    expect(sql('select pg_catalog.generate_series(1, 3)')).toContain('unnest(lakegate_pg.pgc.lg_gsl2(generate_series(1, 3), 3, 1))');
  });

  test("the `~` operator's regexp_matches is DuckDB's own: format's regexp_matches leaves it", () => {
    expect(sql("select 'a' ~ 'b'")).toBe(`SELECT regexp_matches('a', 'b') AS "?column?"`);
  });

  test('position: int4 whether written as a call or in SQL syntax', () => {
    expect(sql("select position('a' in 'abc')")).toContain("(POSITION('a' IN 'abc'))::int4");
    expect(sql("select strpos('abc', 'a')")).toContain('::int4');
  });

  test("array_length: format's int4 cast, then builtin's empty-array NULL inside it", () => {
    expect(phasesOf('array_length')).toEqual(['format', 'builtin']);
    expect(sql('select array_length(array[1,2], 1)')).toContain('(lakegate_pg.pgc.lg_array_length(ARRAY[1, 2], 1))::int4');
  });

  test("concat: builtin prints a boolean argument as PostgreSQL does, and the call goes on to rename", () => {
    expect(phasesOf('concat')).toEqual(['builtin']);
    expect(sql("select concat('a', true)")).toContain("concat('a', lakegate_pg.pgc.lg_text_arg(true))");
  });

  test('date_part and EXTRACT: typed by datePart, before any other rewrite', () => {
    expect(phasesOf('extract')).toEqual(['datePart']);
    expect(sql('select extract(year from now())')).toContain('CAST(EXTRACT(YEAR FROM now()) AS numeric(38, 0))');
    expect(sql("select date_part('year', now())")).toContain("(date_part('year', now()))::float8");
  });

  test('mod: builtin declines, then the modulo with its probe (22012, 42883 for floats)', () => {
    expect(phasesOf('mod')).toEqual(['mod']);
    expect(sql('select mod(id, 2) from orders')).toContain('lakegate_pg.pgc.lg_mod_t(id, 2, ');
  });

  test('a fold answers qualified or not: pg_catalog.current_user()', () => {
    expect(sql('select pg_catalog.current_user()')).toContain("'alice'");
  });

  test('@>: array containment by builtin first, jsonb containment by json when builtin declines', () => {
    expect(sql('select array[1,2] @> array[1]')).toContain('lakegate_pg.pgc.lg_array_contains(ARRAY[1, 2], ARRAY[1])');
    expect(sql(`select '{"a":1}'::jsonb @> '{"a":1}'`)).toContain('lakegate_pg.pgc.lg_json_contains(');
  });

  test("casts: 'x'::regclass::text folds to the name before regclass's own rewrite; a timestamptz literal's offset is DuckDB's", () => {
    expect(sql("select 'orders'::regclass::text")).toBe("SELECT 'orders' AS text");
    expect(sql("select '2024-01-01 10:00+02'::timestamptz")).toContain("'2024-01-01 10:00:00+02:00'::timestamptz");
    expect(sql("select 'abc'::varchar(2)")).toContain("substr('abc'::varchar, 1, 2)");
    expect(() => sql("select 1::nosuchtype")).toThrow(SqlError);
  });

  test('a qualifier other than pg_catalog reaches only the rewrites that never looked at it', () => {
    const schemas = (parts: string[]) => rewritesOf(parts, false).map((r) => r.phase);
    expect(schemas(['pg_catalog', 'round'])).toEqual(['builtin', 'round']);
    expect(schemas(['elsewhere', 'round'])).toEqual([]);
    expect(schemas(['elsewhere', 'extract'])).toEqual(['datePart']);
    expect(rewritesOf(['information_schema', '_pg_expandarray'], true).map((r) => r.phase)).toEqual(['emulation']);
  });
});
