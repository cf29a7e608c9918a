import { loadParser, parseStatements } from './parse.js';
import { walk } from './walk.js';

beforeAll(async () => {
  await loadParser();
});

const kinds = (sql: string): string[] => {
  const out: string[] = [];
  walk(parseStatements(sql)[0]!.node, (v) => {
    out.push(v.kind);
  });
  return out;
};

describe('walk', () => {
  it('visits wrapped nodes and the typed fields libpg-query leaves unwrapped', () => {
    const k = kinds('WITH w AS (SELECT 1) SELECT x::int, count(*) OVER (ORDER BY x) FROM t a UNION SELECT 2');
    // the UNION arms, the WITH clause, the cast's type, the window and the alias are all reported
    expect(k.filter((x) => x === 'SelectStmt')).toHaveLength(4);
    for (const kind of ['WithClause', 'TypeName', 'WindowDef', 'Alias', 'RangeVar', 'CommonTableExpr']) expect(k).toContain(kind);
  });

  it('reports an unwrapped object it has no type for, so authorization can refuse it', () => {
    const out: string[] = [];
    walk({ SelectStmt: { mystery: { a: { ColumnRef: { fields: [] } } } } }, (v) => {
      out.push(v.kind);
    });
    expect(out).toEqual(['SelectStmt', 'unknown field SelectStmt.mystery', 'ColumnRef']);
  });

  it('gives the ancestor path with array indexes', () => {
    const paths: string[] = [];
    walk(parseStatements('SELECT a, b FROM t')[0]!.node, (v) => {
      if (v.kind === 'ColumnRef') paths.push(v.path.map((p) => `${p.kind}.${p.key}${p.index ?? ''}`).join('/'));
    });
    expect(paths).toEqual(['SelectStmt.targetList0/ResTarget.val', 'SelectStmt.targetList1/ResTarget.val']);
  });
});
