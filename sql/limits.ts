/**
 * Bounds on a statement's size and shape, checked before any expensive work.
 * Every later step (authorize, resolve, rewrite, deparse, DuckDB's binder)
 * costs time proportional to the tree or worse: DuckDB binds deep constant
 * chains in cubic time and expands macro arguments by copying them. These
 * checks keep each statement's work small and bounded, so no session can
 * stall the event loop or an engine thread for the others. They walk with an
 * explicit stack: a hostile tree must not overflow the JavaScript stack while
 * it is being measured.
 */
import { SqlError, pos } from './errors.js';
import { EMULATION_DB } from './emulation.js';

export interface TreeLimits {
  /** Largest number of parse-tree nodes one statement may have. */
  maxNodes: number;
  /** Deepest nesting (operators, subqueries, UNION arms, ARRAY[…] …). */
  maxDepth: number;
}

/**
 * Defaults (server/config.ts `limits` overrides them). Measured so that the
 * work one statement can cause on the event loop and in DuckDB's binder stays
 * in the tens of milliseconds: see README, "Limits".
 */
export const DEFAULT_TREE_LIMITS: TreeLimits = { maxNodes: 10_000, maxDepth: 256 };

/** PostgreSQL's own limits, reported with its SQLSTATEs and words. */
export const PG_MAX_TARGET_ENTRIES = 1664;
export const PG_MAX_FUNCTION_ARGS = 100;
export const PG_MAX_ARRAY_DIMENSIONS = 6;

/** Identifiers the parser truncated are exactly 60–63 bytes long (63 bytes clipped at a character boundary). */
const TRUNCATED_MIN_BYTES = 60;
const TRUNCATED_MAX_BYTES = 63;

export interface TreeMeasure {
  nodes: number;
  depth: number;
  /** Some string in the tree could be an identifier the parser truncated: check with the scanner. */
  maybeTruncatedIdentifier: boolean;
}

type Fields = Record<string, unknown>;
const fieldsOf = (n: unknown, kind: string): Fields | undefined => {
  const f = (n as Record<string, unknown> | null | undefined)?.[kind];
  return typeof f === 'object' && f !== null ? (f as Fields) : undefined;
};

const isWrapper = (o: Record<string, unknown>): boolean => {
  let key: string | undefined;
  let n = 0;
  for (const k in o) {
    key = k;
    if (++n > 1) return false;
  }
  if (n !== 1) return false;
  const c = key!.charCodeAt(0);
  const v = o[key!];
  return c >= 65 && c <= 90 && typeof v === 'object' && v !== null && !Array.isArray(v);
};

const tooDeep = (max: number): SqlError =>
  new SqlError('54001', 'stack depth limit exceeded', undefined, {
    hint: `The statement nests more than ${max} levels (lakegate's limits.maxStatementDepth); long chains of UNION or of one operator count one level per step.`,
  });

const tooMany = (nodes: number, max: number): SqlError =>
  new SqlError('54001', `statement is too complex: more than ${max} parse-tree nodes`, undefined, {
    hint: `Split the statement, or raise lakegate's limits.maxStatementNodes (it has at least ${nodes}).`,
  });

/**
 * Count the nodes and the nesting of a parse tree (a node is an object that
 * is not a `{ Kind: … }` wrapper) and refuse past the limits, and past
 * PostgreSQL's own limits on the shape. Iterative.
 */
export function checkTree(root: unknown, limits: TreeLimits): TreeMeasure {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  let nodes = 0;
  let deepest = 0;
  let maybeTruncated = false;
  while (values.length > 0) {
    const v = values.pop();
    const d = depths.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const x = v[i];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(d);
        }
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    const wrapper = isWrapper(o);
    if (wrapper) checkPostgresNode(o);
    const depth = wrapper ? d : d + 1;
    if (depth !== d) {
      if (++nodes > limits.maxNodes) throw tooMany(nodes, limits.maxNodes);
      if (depth > limits.maxDepth) throw tooDeep(limits.maxDepth);
      if (depth > deepest) deepest = depth;
    }
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null) {
        values.push(x);
        depths.push(depth);
      } else if (typeof x === 'string' && x.length >= TRUNCATED_MIN_BYTES / 3 && !maybeTruncated) {
        const bytes = Buffer.byteLength(x, 'utf8');
        maybeTruncated = bytes >= TRUNCATED_MIN_BYTES && bytes <= TRUNCATED_MAX_BYTES;
      }
    }
  }
  return { nodes, depth: deepest, maybeTruncatedIdentifier: maybeTruncated };
}

/**
 * PostgreSQL's own limits on a statement's shape, with its SQLSTATEs and texts:
 * target lists (54011), function arguments (54023), array dimensions (54000).
 * Checked on the user's tree, node by node as checkTree meets them, before
 * `*` is expanded (the engine's column count is checked again once known).
 */
function checkPostgresNode(o: Fields): void {
  const select = fieldsOf(o, 'SelectStmt');
  if (select && Array.isArray(select['targetList']) && select['targetList'].length > PG_MAX_TARGET_ENTRIES) {
    throw tooManyColumns();
  }
  const call = fieldsOf(o, 'FuncCall');
  if (call && Array.isArray(call['args']) && call['args'].length > PG_MAX_FUNCTION_ARGS) {
    throw new SqlError('54023', `cannot pass more than ${PG_MAX_FUNCTION_ARGS} arguments to a function`, pos(call['location']));
  }
  if (fieldsOf(o, 'A_ArrayExpr')) checkArrayDimensions(o);
  const cast = fieldsOf(o, 'TypeCast');
  const bounds = (cast?.['typeName'] as Fields | undefined)?.['arrayBounds'] ?? fieldsOf(o, 'TypeName')?.['arrayBounds'];
  if (Array.isArray(bounds) && bounds.length > PG_MAX_ARRAY_DIMENSIONS) throw tooManyDimensions(bounds.length);
}

export const tooManyColumns = (): SqlError => new SqlError('54011', `target lists can have at most ${PG_MAX_TARGET_ENTRIES} entries`);

const tooManyDimensions = (n: number): SqlError =>
  new SqlError('54000', `number of array dimensions (${n}) exceeds the maximum allowed (${PG_MAX_ARRAY_DIMENSIONS})`);

/** ARRAY[ARRAY[…]] nests dimensions: PostgreSQL allows six. Follows the first element down, iteratively. */
function checkArrayDimensions(node: unknown): void {
  let dims = 0;
  let current: unknown = node;
  for (;;) {
    const f = fieldsOf(current, 'A_ArrayExpr');
    if (!f) return;
    if (++dims > PG_MAX_ARRAY_DIMENSIONS) throw tooManyDimensions(dims);
    const elements = f['elements'];
    current = Array.isArray(elements) ? elements[0] : undefined;
  }
}

/**
 * How many nodes (counted as checkTree counts them) DuckDB's binder will see
 * once the emulation's macros are expanded: a macro copies each argument into its body as often as the body
 * names it (at most `copies` times, or as `copiesOf` counts it for that macro), so nested macro calls multiply. Computed
 * on the final tree, post-order, with an explicit stack.
 */
export function expandedSize(root: unknown, copies: number, cap: number, copiesOf: Readonly<Record<string, readonly number[]>> = {}): number {
  // Recursive: the tree's depth is already bounded by checkTree. Returns early once past the cap.
  const size = (v: unknown): number => {
    if (Array.isArray(v)) {
      let sum = 0;
      for (const x of v) if (typeof x === 'object' && x !== null && (sum += size(x)) > cap) return sum;
      return sum;
    }
    const o = v as Fields;
    const call = fieldsOf(o, 'FuncCall');
    if (call) {
      const fn = call['funcname'];
      const macro = Array.isArray(fn) && fn.length === 3 && fieldsOf(fn[0], 'String')?.['sval'] === EMULATION_DB;
      if (macro) {
        // a macro with its own count per argument (sql/emulation.ts MACRO_ARG_COPIES_OF), else `copies` each
        const own = copiesOf[String(fieldsOf(fn[2], 'String')?.['sval'])];
        let sum = 1;
        const args = (call['args'] ?? []) as unknown[];
        for (let i = 0; i < args.length; i++) {
          const a = args[i];
          if (typeof a === 'object' && a !== null && (sum += (own?.[i] ?? copies) * size(a)) > cap) return sum;
        }
        return sum;
      }
    }
    let sum = isWrapper(o) ? 0 : 1;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null && (sum += size(x)) > cap) return sum;
    }
    return sum;
  };
  return size(root);
}

/** Expressions DuckDB folds when every operand is a constant. */
const EXPRESSION_KINDS: ReadonlySet<string> = new Set([
  'A_Expr', 'FuncCall', 'TypeCast', 'BoolExpr', 'A_ArrayExpr', 'CoalesceExpr', 'MinMaxExpr', 'CaseExpr', 'CaseWhen',
  'NullTest', 'BooleanTest', 'A_Indirection', 'A_Indices', 'RowExpr', 'CollateClause', 'List',
]);
/** Fields of an expression that name things rather than hold operands. */
const NAMING_FIELDS: ReadonlySet<string> = new Set(['name', 'funcname', 'typeName', 'collname', 'over', 'agg_order', 'agg_filter']);

/**
 * DuckDB folds a constant expression while preparing it, in time that grows
 * with the cube of its nesting (a chain of 200 constants `1 + 1 + …` takes
 * 0.3 s, 250 of `'a' || …` seconds), and no interrupt reaches it there. So a
 * constant subexpression may nest at most `max` levels (54001 beyond): a
 * statement of many such chains then costs at most its node count times max².
 * Recursive over the final tree; its depth is bounded by checkTree.
 */
export function checkConstantNesting(root: unknown, max: number): void {
  const tooDeep = (): SqlError =>
    new SqlError('54001', `statement is too complex: a constant expression nested more than ${max} levels`, undefined, {
      hint: 'Write the value itself, or compute it in fewer steps.',
    });
  /** Nesting of the constant expression `v` is, or -1 when it is not constant (its parts are still checked). */
  const nesting = (v: unknown): number => {
    if (Array.isArray(v)) {
      let deepest = 0;
      let constant = true;
      for (const x of v) {
        if (typeof x !== 'object' || x === null) continue;
        const d = nesting(x);
        if (d < 0) constant = false;
        else if (d > deepest) deepest = d;
      }
      return constant ? deepest : -1;
    }
    const o = v as Fields;
    if (!isWrapper(o)) {
      for (const k in o) if (typeof o[k] === 'object' && o[k] !== null) nesting(o[k]);
      return -1;
    }
    const kind = Object.keys(o)[0]!;
    if (kind === 'A_Const') return 1;
    const fields = o[kind] as Fields;
    const expression = EXPRESSION_KINDS.has(kind);
    let constant = expression;
    let deepest = 0;
    for (const k in fields) {
      const x = fields[k];
      if (typeof x !== 'object' || x === null || (expression && NAMING_FIELDS.has(k))) continue;
      const d = nesting(x);
      if (d < 0) constant = false;
      else if (d > deepest) deepest = d;
    }
    if (!constant) return -1;
    // A List only groups operands: it adds no level of its own.
    const depth = kind === 'List' ? deepest : deepest + 1;
    if (depth > max) throw tooDeep();
    return depth;
  };
  nesting(root);
}
