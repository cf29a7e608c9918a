/**
 * Stable OIDs for user objects. DuckDB's catalog-entry ids change every process,
 * but clients keep OIDs (psql's \d passes the table OID between queries; pgJDBC
 * caches them), so OIDs are derived from names. Range: PostgreSQL's
 * FirstNormalObjectId (16384) up to 2^31-1, so they also fit a signed int4.
 */
const FIRST_NORMAL_OBJECT_ID = 16384;
const SPAN = 0x7fffffff - FIRST_NORMAL_OBJECT_ID;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** `kind` separates OID spaces that PostgreSQL keeps apart only by catalog (a schema and a table may share a name). */
export function stableOid(kind: 'namespace' | 'relation' | 'type' | 'database' | 'role', ...parts: string[]): number {
  return FIRST_NORMAL_OBJECT_ID + (fnv1a(`${kind}:${parts.join('\u0000')}`) % SPAN);
}
