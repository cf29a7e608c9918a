/**
 * Lookup tables indexed by names from outside — a user's SQL, the catalog's
 * or a policy's JSON. A plain object answers `name in t` and `t[name]` for
 * Object.prototype's members too (`constructor`, `toString`, `__proto__` …),
 * so a name the table never listed would be found. These have no prototype:
 * only their own entries are ever found.
 */

/** A frozen table without a prototype, holding exactly `entries`. */
export function ownTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** An empty table without a prototype, to fill by names from outside. */
export function ownRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
