/**
 * The json/jsonb helpers sql/jsonDialect.ts calls, as DuckDB macros over its
 * json extension: value text with PostgreSQL's `null`, the containment and
 * key-existence operators, json_typeof's names, and the set-returning
 * functions as table macros with PostgreSQL's columns (key, value).
 */
/** A JSON string token, or a run of text between strings (RE2, as a SQL literal). */
const JSON_TOKEN = `'"(?:[^"\\\\]|\\\\.)*"|[^"]+'`;

export function jsonMacroStatements(m: (sig: string) => string, schema: string): string[] {
  const q = (name: string) => `${schema}.${name}`;
  // a JSON value to test `?` against: the key as a JSON string
  return [
    m(`lg_json_value(v) AS coalesce(CAST(to_json(v) AS VARCHAR), 'null')`),
    // A numeric as PostgreSQL writes it in JSON, its own digits (DuckDB's to_json prints a DECIMAL through a
    // double: 100.00 → 100.0). typeof is folded while binding, so one branch remains; an overload chosen by
    // type would be chosen blind inside a correlated subquery (jsonb's equality), where v is bound later.
    m(`lg_json_num(v) AS CASE WHEN typeof(v) LIKE 'DECIMAL(%' THEN CAST(CAST(v AS VARCHAR) AS JSON) ELSE to_json(v) END`),
    m(`lg_json_value_n(v) AS coalesce(CAST(${q('lg_json_num')}(v) AS VARCHAR), 'null')`),
    // The same for a value that holds a bound parameter: DuckDB's to_json leaves its result type
    // unresolved at prepare when its argument holds a parameter (so no RowDescription before Bind);
    // behind a lambda the argument is a plain reference. Costs a one-element list per row, so the
    // dialect uses it only where a parameter is.
    m(`lg_json_text_p(v) AS CAST(list_transform([v], lg_x -> to_json(lg_x))[1] AS VARCHAR)`),
    m(`lg_json_value_p(v) AS coalesce(${q('lg_json_text_p')}(v), 'null')`),
    m(`lg_to_json_p(v) AS list_transform([v], lg_x -> to_json(lg_x))[1]`),
    // jsonb's equality: a value as the list of its nodes by path (json_tree), sorted, so object key order and
    // spacing do not count; a duplicate key's earlier value and all below it are dropped (jsonb keeps the last);
    // numbers by value (1.0 = 1: 18 decimals exact, beyond that as double); strings unescaped. Only where jsonb
    // is compared (sql/builtinDialect.ts jsonbEquality): json_tree is a table function per value.
    m(`lg_jsonb_canon(j) AS (
        WITH lg_n AS (SELECT id, fullkey, type, atom, value, max(id) OVER (PARTITION BY fullkey) AS lg_w FROM json_tree(CAST(j AS JSON)))
        SELECT list(struct_pack(k := n.fullkey, t := CASE WHEN n.type IN ('UBIGINT', 'BIGINT', 'DOUBLE') THEN 'N' ELSE n.type END,
            v := CASE WHEN n.type IN ('UBIGINT', 'BIGINT', 'DOUBLE')
              THEN coalesce(CAST(TRY_CAST(CAST(n.value AS VARCHAR) AS DECIMAL(38, 18)) AS VARCHAR), CAST(CAST(CAST(n.value AS VARCHAR) AS DOUBLE) AS VARCHAR))
              ELSE CAST(n.atom AS VARCHAR) END) ORDER BY n.fullkey, n.id)
        FROM lg_n n WHERE NOT EXISTS (SELECT 1 FROM lg_n l WHERE l.id < l.lg_w AND n.id >= l.id AND n.id < l.lg_w
          AND (n.fullkey = l.fullkey OR starts_with(n.fullkey, l.fullkey || '.') OR starts_with(n.fullkey, l.fullkey || '['))))`),
    // jsonb's deleting and setting operators, one level at a time: sql/jsonDialect.ts composes a constant path's
    // levels. Values are rebuilt as compact JSON text from an object's members (a MAP cast keeps their order
    // and duplicate keys: server/rows prints jsonb with the last one, as jsonb keeps) or an array's items.
    // NULL as a new value means "the path below does not exist": the value stays as it is.
    m(`lg_jsonb_nonscalar(j, msg) AS CASE WHEN json_type(CAST(j AS JSON)) IN ('OBJECT', 'ARRAY') OR j IS NULL THEN CAST(j AS JSON) ELSE error(msg) END`),
    m(`lg_jsonb_members(j) AS map_entries(CAST(CAST(j AS JSON) AS MAP(VARCHAR, JSON)))`),
    m(`lg_jsonb_items(j) AS list_transform(CAST(CAST(j AS JSON) AS JSON[]), lambda lg_e: CAST(lg_e AS VARCHAR))`),
    m(`lg_jsonb_list(items) AS CAST('[' || array_to_string(items, ',') || ']' AS JSON)`),
    m(`lg_jsonb_obj(j, drop, tail) AS CAST('{' || coalesce(array_to_string(list_append(list_transform(
        list_filter(${q('lg_jsonb_members')}(j), lambda lg_e: NOT list_contains(drop, lg_e.key)),
        lambda lg_e: CAST(to_json(lg_e.key) AS VARCHAR) || ':' || CAST(lg_e.value AS VARCHAR)), tail), ','), '') || '}' AS JSON)`),
    m(`lg_jsonb_del_keys(j, ks) AS CASE WHEN j IS NULL OR ks IS NULL THEN NULL
        WHEN json_type(CAST(j AS JSON)) = 'OBJECT' THEN ${q('lg_jsonb_obj')}(j, ks, NULL)
        WHEN json_type(CAST(j AS JSON)) = 'ARRAY' THEN ${q('lg_jsonb_list')}(list_filter(${q('lg_jsonb_items')}(j),
          lambda lg_e: NOT (json_type(CAST(lg_e AS JSON)) = 'VARCHAR' AND coalesce(list_contains(ks, json_extract_string(lg_e, '$')), false))))
        ELSE error('cannot delete from scalar') END`),
    m(`lg_jsonb_pos(j, i) AS CAST(CASE WHEN i < 0 THEN CAST(json_array_length(CAST(j AS JSON)) AS BIGINT) + i ELSE i END AS BIGINT)`),
    m(`lg_jsonb_del_index(j, i) AS CASE WHEN j IS NULL OR i IS NULL THEN NULL
        WHEN json_type(CAST(j AS JSON)) = 'ARRAY' THEN ${q('lg_jsonb_list')}(list_filter(${q('lg_jsonb_items')}(j),
          lambda lg_e, lg_i: lg_i - 1 <> ${q('lg_jsonb_pos')}(j, i)))
        WHEN json_type(CAST(j AS JSON)) = 'OBJECT' THEN error('cannot delete from object using integer index')
        ELSE error('cannot delete from scalar') END`),
    m(`lg_jsonb_int(p, n) AS coalesce(TRY_CAST(p AS INTEGER), error('path element at position ' || n || ' is not an integer: "' || p || '"'))`),
    // the child at one path element (NULL: none)
    m(`lg_jsonb_child1(j, p, n) AS CASE json_type(CAST(j AS JSON))
        WHEN 'OBJECT' THEN CAST(list_filter(${q('lg_jsonb_members')}(j), lambda lg_e: lg_e.key = p)[-1].value AS JSON)
        WHEN 'ARRAY' THEN CAST(list_transform([${q('lg_jsonb_pos')}(j, ${q('lg_jsonb_int')}(p, n))],
          lambda lg_i: CASE WHEN lg_i >= 0 THEN ${q('lg_jsonb_items')}(j)[lg_i + 1] END)[1] AS JSON) END`),
    // one path element of #-: an object's key, an array's index; a scalar stays
    m(`lg_jsonb_del_step1(j, p, n) AS CASE json_type(CAST(j AS JSON))
        WHEN 'OBJECT' THEN ${q('lg_jsonb_del_keys')}(j, [p])
        WHEN 'ARRAY' THEN ${q('lg_jsonb_del_index')}(j, ${q('lg_jsonb_int')}(p, n))
        ELSE CAST(j AS JSON) END`),
    // jsonb_set's and jsonb_insert's one level: v at element p of j. mode 'set': replace (add when create);
    // 'before' / 'after': insert into an array, add to an object (an existing key is an error)
    m(`lg_jsonb_put1(j, p, n, v, mk, mode) AS CASE
        WHEN v IS NULL OR j IS NULL THEN j
        WHEN json_type(j) = 'OBJECT' THEN CASE
          WHEN list_contains(json_keys(j), p) AND mode <> 'set' THEN error('cannot replace existing key')
          WHEN mk OR list_contains(json_keys(j), p) THEN ${q('lg_jsonb_obj')}(j, [p], CAST(to_json(p) AS VARCHAR) || ':' || v)
          ELSE j END
        WHEN json_type(j) = 'ARRAY' THEN ${q('lg_jsonb_put_at')}(j, ${q('lg_jsonb_items')}(j), ${q('lg_jsonb_pos')}(j, ${q('lg_jsonb_int')}(p, n)), v, mk, mode)
        ELSE j END`),
    m(`lg_jsonb_put_at(j, items, i, v, mk, mode) AS CASE
        WHEN i < 0 THEN CASE WHEN mk THEN ${q('lg_jsonb_list')}(list_prepend(v, items)) ELSE j END
        WHEN i >= len(items) THEN CASE WHEN mk THEN ${q('lg_jsonb_list')}(list_append(items, v)) ELSE j END
        ELSE ${q('lg_jsonb_list')}(list_transform(items, lambda lg_e, lg_k: CASE WHEN lg_k - 1 <> i THEN lg_e
          WHEN mode = 'set' THEN v WHEN mode = 'after' THEN lg_e || ',' || v ELSE v || ',' || lg_e END)) END`),
    // each value once (a composed path nests levels): bound to a lambda's parameter. Their copies per
    // argument are sql/emulation.ts MACRO_ARG_COPIES_OF's.
    m(`lg_jsonb_child(j, p, n) AS list_transform([CAST(j AS JSON)], lambda lg_c: ${q('lg_jsonb_child1')}(lg_c, p, n))[1]`),
    m(`lg_jsonb_del_step(j, p, n) AS list_transform([CAST(j AS JSON)], lambda lg_c: ${q('lg_jsonb_del_step1')}(lg_c, p, n))[1]`),
    m(`lg_jsonb_put(j, p, n, v, mk, mode) AS list_transform([struct_pack(lg_j := CAST(j AS JSON), lg_v := CAST(v AS VARCHAR))],
        lambda lg_s: ${q('lg_jsonb_put1')}(lg_s.lg_j, p, n, lg_s.lg_v, mk, mode))[1]`),
    // jsonb_strip_nulls: a member whose value is null goes, at every depth, array elements stay. Over the compact
    // text's tokens (strings, and the runs between them): a key followed by `:null` loses both and its comma;
    // then a comma left before `}` goes. (Of duplicate keys, a null one goes and an earlier one stays.)
    m(`lg_jsonb_strip_commas(s) AS array_to_string(list_transform(regexp_extract_all(s, ${JSON_TOKEN}),
        lambda lg_t: CASE WHEN starts_with(lg_t, '"') THEN lg_t ELSE replace(lg_t, ',}', '}') END), '')`),
    m(`lg_jsonb_strip_nulls(j) AS CASE WHEN j IS NULL THEN NULL ELSE CAST(list_transform([regexp_extract_all(CAST(json(CAST(j AS JSON)) AS VARCHAR), ${JSON_TOKEN})],
        lambda lg_t: ${q('lg_jsonb_strip_commas')}(array_to_string(list_transform(lg_t, lambda lg_s, lg_i: CASE
          WHEN starts_with(lg_s, '"') AND lg_i < len(lg_t) AND regexp_matches(lg_t[lg_i + 1], '^:null[,}]') THEN ''
          WHEN lg_i > 1 AND starts_with(lg_t[lg_i - 1], '"') AND regexp_matches(lg_s, '^:null[,}]') THEN regexp_replace(lg_s, '^:null,?', '')
          ELSE lg_s END), '')))[1] AS JSON) END`),
    m(`lg_json_contains(a, b) AS json_contains(CAST(a AS JSON), CAST(b AS JSON))`),
    // `?`: a top-level key of an object, a string element of an array, or the string itself
    m(`lg_json_has(j, k) AS CASE json_type(CAST(j AS JSON))
        WHEN 'OBJECT' THEN list_contains(json_keys(CAST(j AS JSON)), k)
        WHEN 'ARRAY' THEN list_contains(list_transform(CAST(json_extract(CAST(j AS JSON), '$[*]') AS VARCHAR[]), lg_e -> lg_e), CAST(to_json(CAST(k AS VARCHAR)) AS VARCHAR))
        WHEN 'VARCHAR' THEN json_extract_string(CAST(j AS JSON), '$') = k
        ELSE false END`),
    m(`lg_json_has_any(j, ks) AS len(list_filter(ks, lg_k -> ${q('lg_json_has')}(j, lg_k))) > 0`),
    m(`lg_json_has_all(j, ks) AS len(list_filter(ks, lg_k -> ${q('lg_json_has')}(j, lg_k))) = len(ks)`),
    m(`lg_json_typeof(j) AS CASE json_type(CAST(j AS JSON)) WHEN 'OBJECT' THEN 'object' WHEN 'ARRAY' THEN 'array'
        WHEN 'VARCHAR' THEN 'string' WHEN 'BOOLEAN' THEN 'boolean' WHEN 'NULL' THEN 'null'
        WHEN NULL THEN NULL ELSE 'number' END`),
    m(`lg_json_array_length(j) AS CASE WHEN json_type(CAST(j AS JSON)) = 'ARRAY' THEN json_array_length(CAST(j AS JSON))
        ELSE error('cannot get array length of a non-array') END`),
    ...['json_each', 'jsonb_each'].map((n) => m(`${n}(j) AS TABLE SELECT key, CAST(value AS JSON) AS value FROM json_each(CAST(j AS JSON))`)),
    ...['json_each_text', 'jsonb_each_text'].map((n) =>
      m(`${n}(j) AS TABLE SELECT key, json_extract_string(value, '$') AS value FROM json_each(CAST(j AS JSON))`)),
    ...['json_array_elements', 'jsonb_array_elements'].map((n) =>
      m(`${n}(j) AS TABLE SELECT CAST(value AS JSON) AS value FROM json_each(CAST(j AS JSON))`)),
    ...['json_array_elements_text', 'jsonb_array_elements_text'].map((n) =>
      m(`${n}(j) AS TABLE SELECT json_extract_string(value, '$') AS value FROM json_each(CAST(j AS JSON))`)),
  ];
}
