import { SqlError } from './errors.js';
import { loadParser, parseStatements } from './parse.js';

beforeAll(async () => {
  await loadParser();
});

function errorOf(text: string): SqlError {
  try {
    parseStatements(text);
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe('parseStatements', () => {
  it('splits statements and slices each one its own text', () => {
    const stmts = parseStatements('/* dbt */ select 1; SET search_path = sales ;select 2');
    expect(stmts.map((s) => s.kind)).toEqual(['SelectStmt', 'VariableSetStmt', 'SelectStmt']);
    expect(stmts.map((s) => s.text)).toEqual(['select 1', 'SET search_path = sales', 'select 2']);
  });

  it('gives nothing for empty or comment-only text', () => {
    expect(parseStatements('')).toEqual([]);
    expect(parseStatements('  -- just a comment\n /* and another */ ')).toEqual([]);
    expect(parseStatements(';;')).toEqual([]);
  });

  it('reports syntax errors with PostgreSQL message, SQLSTATE 42601 and 1-based position', () => {
    const e = errorOf('SELECT * FROM FROM t');
    expect([e.code, e.message, e.position]).toEqual(['42601', 'syntax error at or near "FROM"', 15]);
    const end = errorOf('select (1');
    expect([end.code, end.message, end.position]).toEqual(['42601', 'syntax error at end of input', 10]);
  });

  it('counts positions in characters, not UTF-8 bytes', () => {
    expect(errorOf("select 'ü' FROM FROM").position).toBe(17);
  });

  it('refuses identifiers longer than 63 bytes instead of truncating them', () => {
    const long = 'a'.repeat(64);
    const e = errorOf(`select * from sales.${long}`);
    expect(e.code).toBe('42622');
    expect(e.position).toBe(21);
    expect(errorOf(`select "${'é'.repeat(32)}" from t`).code).toBe('42622'); // 32 chars, 64 bytes
    expect(parseStatements(`select ${'a'.repeat(63)} from t`)).toHaveLength(1);
  });
});
