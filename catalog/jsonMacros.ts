/**
 * The json/jsonb helpers sql/jsonDialect.ts calls, as DuckDB macros over its
 * json extension: value text with PostgreSQL's `null`, the containment and
 * key-existence operators, json_typeof's names, and the set-returning
 * functions as table macros with PostgreSQL's columns (key, value).
 */
export function jsonMacroStatements(m: (sig: string) => string, schema: string): string[] {
  const q = (name: string) => `${schema}.${name}`;
  // a JSON value to test `?` against: the key as a JSON string
  return [
    m(`lg_json_value(v) AS coalesce(CAST(to_json(v) AS VARCHAR), 'null')`),
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
