/**
 * The json/jsonb helpers sql/dialect/json.ts calls, as DuckDB macros over its
 * json extension: value text with PostgreSQL's `null`, the containment and
 * key-existence operators, json_typeof's names, and the set-returning
 * functions as table macros with PostgreSQL's columns (key, value).
 */
/** A JSON string token, or a run of text between strings (RE2, as a SQL literal). */
const JSON_TOKEN = `'"(?:[^"\\\\]|\\\\.)*"|[^"]+'`;
/** A JSON string token, a number, or a run of anything else (RE2, as a SQL literal). */
const JSON_SCALAR_TOKEN = `'"(?:[^"\\\\]|\\\\.)*"|-?[0-9][0-9.eE+-]*|[^"0-9-]+'`;
/** Levels of a jsonb value lg_jsonb puts in jsonb's order: each is a pass over the value's nodes. */
export const JSONB_LEVELS = 8;
const levels = (level: string, start: string): string => {
  let e = start;
  for (let i = 0; i < JSONB_LEVELS; i++) e = `${level}(${e})`;
  return e;
};

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
    // jsonb's text (jsonb_out's) from JSON text, inside DuckDB, so that ::text, ->>, DISTINCT and GROUP BY of a
    // jsonb see it. DuckDB's JSON parser re-prints numbers through a double (1.50 → 1.5, 1e2 → 100.0), so first
    // every value is tagged as a string ("n" + the number as numeric prints it, "s" + a string; keys stay),
    // then the tagged text is parsed: an object's members are sorted (shorter keys first, then bytewise; the
    // last of equal keys wins), level by level into a flat list of nodes keyed by their path's sort key (no
    // macro recursion: DuckDB has none), and printed in that order with PostgreSQL's ", " and ": ".
    // Below JSONB_LEVELS levels a value keeps its members' order as written (server/rows still prints it as
    // jsonb_out does).
    m(`lg_jsonb_num_x(s) AS list_transform([regexp_extract(s, '^(-?)([0-9]+)(?:\\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$', ['g', 'i', 'f', 'e'])],
        lambda lg_m: list_transform([struct_pack(g := lg_m.g, d := lg_m.i || lg_m.f, sc := len(lg_m.f) - CASE WHEN len(lg_m.e) > 7 OR NOT coalesce(TRY_CAST(nullif(lg_m.e, '') AS INTEGER), 0) BETWEEN -16383 AND 131071
            THEN error('value overflows numeric format') ELSE coalesce(TRY_CAST(nullif(lg_m.e, '') AS INTEGER), 0) END)],
        lambda lg_x: list_transform([lpad(lg_x.d || repeat('0', greatest(-lg_x.sc, 0)), CAST(greatest(len(lg_x.d) + greatest(-lg_x.sc, 0), greatest(lg_x.sc, 0) + 1) AS INTEGER), '0')],
        lambda lg_d: list_transform([struct_pack(w := coalesce(nullif(ltrim(lg_d[1:len(lg_d) - greatest(lg_x.sc, 0)], '0'), ''), '0'), f := lg_d[len(lg_d) - greatest(lg_x.sc, 0) + 1:])],
        lambda lg_p: CASE WHEN lg_p.w = '0' AND ltrim(lg_p.f, '0') = '' THEN '' ELSE lg_x.g END || lg_p.w || CASE WHEN lg_x.sc > 0 THEN '.' || lg_p.f ELSE '' END)[1])[1])[1])[1]`),
    // a JSON number as numeric prints it (no exponent, no negative zero); the usual one as it is. An exponent past
    // numeric's digits (about 131072 before the point, 16383 after) is PostgreSQL's error, and bounds the text.
    m(`lg_jsonb_num(s) AS CASE WHEN regexp_full_match(s, '-?(0|[1-9][0-9]*)(\\.[0-9]+)?') AND NOT regexp_full_match(s, '-0(\\.0+)?') THEN s
        ELSE ${q('lg_jsonb_num_x')}(s) END`),
    // DuckDB escapes a control character as \u001F, PostgreSQL as \u001f
    m(`lg_json_lowhex(t) AS CASE WHEN contains(t, '\\u') THEN array_to_string(list_transform(regexp_extract_all(t, '\\\\u[0-9A-Fa-f]{4}|\\\\.|[^\\\\]+'),
        lambda lg_x: CASE WHEN starts_with(lg_x, '\\u') THEN lower(lg_x) ELSE lg_x END), '') ELSE t END`),
    m(`lg_jsonb_tag(s, norm) AS list_transform([regexp_extract_all(s, ${JSON_SCALAR_TOKEN})], lambda lg_ts: array_to_string(list_transform(lg_ts, lambda lg_t, lg_i: CASE
        WHEN starts_with(lg_t, '"') THEN CASE WHEN regexp_matches(coalesce(lg_ts[lg_i + 1], ''), '^\\s*:') THEN lg_t ELSE '"s' || substr(lg_t, 2) END
        WHEN regexp_matches(lg_t, '^-?[0-9]') THEN '"n' || CASE WHEN norm THEN ${q('lg_jsonb_num')}(lg_t) ELSE lg_t END || '"'
        ELSE lg_t END), ''))[1]`),
    // tagged compact text (DuckDB's print) back to jsonb's: values untagged, ", " and ": " between items
    m(`lg_jsonb_untag(s) AS list_transform([regexp_extract_all(s, ${JSON_TOKEN})], lambda lg_ts: array_to_string(list_transform(lg_ts, lambda lg_t, lg_i: CASE
        WHEN NOT starts_with(lg_t, '"') THEN replace(replace(lg_t, ',', ', '), ':', ': ')
        WHEN starts_with(coalesce(lg_ts[lg_i + 1], ''), ':') THEN ${q('lg_json_lowhex')}(lg_t)
        WHEN starts_with(lg_t, '"n') THEN substr(lg_t, 3, len(lg_t) - 3)
        ELSE ${q('lg_json_lowhex')}('"' || substr(lg_t, 3)) END), ''))[1]`),
    // a tagged value's own text: a scalar's, or a container's opening bracket
    m(`lg_jsonb_open(j) AS CASE json_type(j) WHEN 'OBJECT' THEN '{' WHEN 'ARRAY' THEN '['
        WHEN 'VARCHAR' THEN CASE WHEN starts_with(CAST(j AS VARCHAR), '"n') THEN substr(CAST(j AS VARCHAR), 3, len(CAST(j AS VARCHAR)) - 3)
          ELSE ${q('lg_json_lowhex')}('"' || substr(CAST(j AS VARCHAR), 3)) END
        ELSE CAST(j AS VARCHAR) END`),
    // a tagged container's children in jsonb's order: c their sort key's step, p the text before the value
    m(`lg_jsonb_kids(j) AS CASE json_type(j)
        WHEN 'OBJECT' THEN list_transform([list_sort(list_transform(map_entries(CAST(j AS MAP(VARCHAR, JSON))),
            lambda lg_e, lg_i: struct_pack(n := strlen(lg_e.key), k := lg_e.key, i := lg_i, v := lg_e.value)))],
          lambda lg_l: list_transform(list_filter(lg_l, lambda lg_e, lg_i: lg_i = len(lg_l) OR lg_l[lg_i + 1].k <> lg_e.k),
            lambda lg_e: struct_pack(c := lpad(CAST(lg_e.n AS VARCHAR), 10, '0') || lg_e.k, p := ${q('lg_json_lowhex')}(CAST(to_json(lg_e.k) AS VARCHAR)) || ': ', v := lg_e.v)))[1]
        WHEN 'ARRAY' THEN list_transform(CAST(j AS JSON[]), lambda lg_e, lg_i: struct_pack(c := lpad(CAST(lg_i AS VARCHAR), 10, '0'), p := '',
          v := coalesce(lg_e, CAST('null' AS JSON)))) END`),
    // one level: each node still holding a container (v) gives way to its children
    m(`lg_jsonb_level(st) AS flatten(list_transform(st, lambda lg_n: CASE WHEN lg_n.v IS NULL THEN [lg_n] ELSE
        list_prepend(struct_pack(sk := lg_n.sk, d := lg_n.d, pre := lg_n.pre, val := lg_n.val, v := CAST(NULL AS JSON)),
          list_transform(${q('lg_jsonb_kids')}(lg_n.v), lambda lg_k, lg_i: struct_pack(sk := lg_n.sk || lg_k.c, d := lg_n.d + 1,
            pre := CASE WHEN lg_i > 1 THEN ', ' ELSE '' END || lg_k.p, val := ${q('lg_jsonb_open')}(lg_k.v),
            v := CASE WHEN json_type(lg_k.v) IN ('OBJECT', 'ARRAY') THEN lg_k.v END))) END))`),
    // the nodes in order, each container closed after its last descendant (its key and '~', after any digit)
    m(`lg_jsonb_print(s0) AS list_transform([s0], lambda lg_st: array_to_string(list_transform(list_sort(list_concat(lg_st,
        list_transform(list_filter(lg_st, lambda lg_n: lg_n.v IS NULL AND lg_n.val IN ('{', '[')),
          lambda lg_n: struct_pack(sk := lg_n.sk || '~', d := lg_n.d, pre := '', val := CASE lg_n.val WHEN '{' THEN '}' ELSE ']' END, v := CAST(NULL AS JSON))))),
        lambda lg_n: lg_n.pre || CASE WHEN lg_n.v IS NULL THEN lg_n.val ELSE ${q('lg_jsonb_untag')}(CAST(lg_n.v AS VARCHAR)) END), ''))[1]`),
    // jsonb_pretty: the same nodes, each member, element and closing bracket on its own line, indented 4 spaces a level
    // (a container after its key opens on the key's line; the first node starts the text)
    m(`lg_jsonb_pretty_print(s0) AS list_transform([s0], lambda lg_st: array_to_string(list_transform(list_sort(list_concat(lg_st,
        list_transform(list_filter(lg_st, lambda lg_n: lg_n.v IS NULL AND lg_n.val IN ('{', '[')),
          lambda lg_n: struct_pack(sk := lg_n.sk || '~', d := lg_n.d, pre := '', val := CASE lg_n.val WHEN '{' THEN '}' ELSE ']' END, v := CAST(NULL AS JSON))))),
        lambda lg_n: CASE WHEN lg_n.sk = '' THEN '' ELSE CASE WHEN starts_with(lg_n.pre, ', ') THEN ',' ELSE '' END || chr(10) || repeat(' ', 4 * lg_n.d) END
          || CASE WHEN starts_with(lg_n.pre, ', ') THEN substr(lg_n.pre, 3) ELSE lg_n.pre END
          || CASE WHEN lg_n.v IS NULL THEN lg_n.val ELSE ${q('lg_jsonb_untag')}(CAST(lg_n.v AS VARCHAR)) END), ''))[1]`),
    m(`lg_jsonb_tree(j) AS ${q('lg_jsonb_print')}(${levels(q('lg_jsonb_level'), `[struct_pack(sk := '', d := 0, pre := '', val := ${q('lg_jsonb_open')}(j),
        v := CASE WHEN json_type(j) IN ('OBJECT', 'ARRAY') THEN j END)]`)})`),
    m(`lg_jsonb_pretty_tree(j) AS ${q('lg_jsonb_pretty_print')}(${levels(q('lg_jsonb_level'), `[struct_pack(sk := '', d := 0, pre := '', val := ${q('lg_jsonb_open')}(j),
        v := CASE WHEN json_type(j) IN ('OBJECT', 'ARRAY') THEN j END)]`)})`),
    m(`lg_jsonb_pretty(x) AS list_transform([CAST(${q('lg_jsonb_tag')}(CAST(CAST(x AS JSON) AS VARCHAR), true) AS JSON)], lambda lg_j: ${q('lg_jsonb_pretty_tree')}(lg_j))[1]`),
    m(`lg_jsonb(x) AS CAST(list_transform([CAST(${q('lg_jsonb_tag')}(CAST(CAST(x AS JSON) AS VARCHAR), true) AS JSON)], lambda lg_j: ${q('lg_jsonb_tree')}(lg_j))[1] AS JSON)`),
    // a value at a constant path of a jsonb (already jsonb's text), as jsonb's text: DuckDB's json_extract would
    // re-print its numbers; ->> and #>> answer a string unquoted, an object or array as its jsonb text
    m(`lg_jsonb_get(j, path) AS CAST(${q('lg_jsonb_untag')}(CAST(json_extract(CAST(${q('lg_jsonb_tag')}(CAST(j AS VARCHAR), true) AS JSON), path) AS VARCHAR)) AS JSON)`),
    // ->> / #>> of a column's ::jsonb where the text as written gives jsonb's answer, reached through objects
    // without duplicate keys (jsonb keeps the last): a string, boolean, null or 64-bit integer by DuckDB's own
    // extraction (about 1 µs a row against lg_jsonb's 30-70), another number from the tagged text as written
    // (its digits, which DuckDB would re-print: about 9 µs); an object or array, or a duplicate key, through lg_jsonb
    m(`lg_jsonb_text_at(x, path, dupfree) AS CASE
        WHEN dupfree AND coalesce(json_type(x, path), 'NULL') IN ('VARCHAR', 'BOOLEAN', 'NULL', 'BIGINT', 'UBIGINT') THEN json_extract_string(x, path)
        WHEN dupfree AND json_type(x, path) IN ('DOUBLE', 'HUGEINT') THEN ${q('lg_jsonb_get_text')}(x, path)
        ELSE ${q('lg_jsonb_get_text')}(${q('lg_jsonb')}(x), path) END`),
    m(`lg_jsonb_get_text(j, path) AS list_transform([json_extract(CAST(${q('lg_jsonb_tag')}(CAST(j AS VARCHAR), true) AS JSON), path)],
        lambda lg_v: ${q('lg_json_member_text')}(lg_v))[1]`),
    // jsonb's equality over jsonb texts: numbers by value (1.0 = 1: trailing fraction zeros go)
    m(`lg_jsonb_eq(j) AS array_to_string(list_transform(regexp_extract_all(CAST(j AS VARCHAR), ${JSON_TOKEN}), lambda lg_t: CASE WHEN starts_with(lg_t, '"') THEN lg_t
        ELSE regexp_replace(regexp_replace(lg_t, '(\\.[0-9]*[1-9])0+([^0-9]|$)', '\\1\\2', 'g'), '\\.0+([^0-9]|$)', '\\1', 'g') END), '')`),
    // jsonb's deleting and setting operators, one level at a time, over tagged texts (lg_jsonb_tag: a string
    // element is "s…"): sql/dialect/json.ts composes a constant path's
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
          lambda lg_e: NOT (json_type(CAST(lg_e AS JSON)) = 'VARCHAR' AND starts_with(json_extract_string(lg_e, '$'), 's')
            AND coalesce(list_contains(ks, substr(json_extract_string(lg_e, '$'), 2)), false))))
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
    // the set-returning functions read the tagged text (its numbers as written: a jsonb is already jsonb's text,
    // a json keeps its own); a value prints with ", " and ": " (json: PostgreSQL keeps the spacing as written)
    m(`lg_json_tagged(j) AS CAST(${q('lg_jsonb_tag')}(CAST(CAST(j AS JSON) AS VARCHAR), false) AS JSON)`),
    // jsonb's text of a value built over tagged texts (jsonb_set, #-, ||: DuckDB's MAP and merge would re-print numbers)
    m(`lg_jsonb_of_tagged(x) AS ${q('lg_jsonb')}(${q('lg_jsonb_untag')}(CAST(x AS VARCHAR)))`),
    m(`lg_json_member_text(v) AS CASE json_type(v)
        WHEN 'VARCHAR' THEN CASE WHEN starts_with(CAST(v AS VARCHAR), '"n') THEN substr(CAST(v AS VARCHAR), 3, len(CAST(v AS VARCHAR)) - 3)
          ELSE substr(json_extract_string(v, '$'), 2) END
        WHEN 'NULL' THEN NULL
        ELSE ${q('lg_jsonb_untag')}(CAST(v AS VARCHAR)) END`),
    ...['json_each', 'jsonb_each'].map((n) =>
      m(`${n}(j) AS TABLE SELECT lg_e.key AS key, CAST(${q('lg_jsonb_untag')}(CAST(lg_e.value AS VARCHAR)) AS JSON) AS value FROM (SELECT ${q('lg_json_tagged')}(j) AS lg_tj) lg_s, json_each(lg_s.lg_tj) lg_e ORDER BY lg_e.id`)),
    ...['json_each_text', 'jsonb_each_text'].map((n) =>
      m(`${n}(j) AS TABLE SELECT lg_e.key AS key, ${q('lg_json_member_text')}(lg_e.value) AS value FROM (SELECT ${q('lg_json_tagged')}(j) AS lg_tj) lg_s, json_each(lg_s.lg_tj) lg_e ORDER BY lg_e.id`)),
    ...['json_array_elements', 'jsonb_array_elements'].map((n) =>
      m(`${n}(j) AS TABLE SELECT CAST(${q('lg_jsonb_untag')}(CAST(lg_e.value AS VARCHAR)) AS JSON) AS value FROM (SELECT ${q('lg_json_tagged')}(j) AS lg_tj) lg_s, json_each(lg_s.lg_tj) lg_e ORDER BY lg_e.id`)),
    ...['json_array_elements_text', 'jsonb_array_elements_text'].map((n) =>
      m(`${n}(j) AS TABLE SELECT ${q('lg_json_member_text')}(lg_e.value) AS value FROM (SELECT ${q('lg_json_tagged')}(j) AS lg_tj) lg_s, json_each(lg_s.lg_tj) lg_e ORDER BY lg_e.id`)),
    // The same, for a value that holds a bound parameter: behind a lambda its type resolves at prepare (as lg_json_text_p)
    ...[['lg_jsonb', ''], ['lg_json_tagged', ''], ['lg_jsonb_eq', ''], ['lg_jsonb_get', ', path'], ['lg_jsonb_get_text', ', path']].map(([n, more]) =>
      m(`${n}_p(x${more}) AS list_transform([CAST(x AS JSON)], lambda lg_p: ${q(n!)}(lg_p${more}))[1]`)),
  ];
}
