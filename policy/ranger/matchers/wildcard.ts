/**
 * `*` / `?` pattern matching without regular expressions (Commons IO's wildcardMatch semantics:
 * `*` is any sequence, empty and `/` included; `?` is exactly one UTF-16 unit). Callers handle
 * case by lower-casing both sides once.
 */

/** Full match of `text` against `pattern`: greedy scan, back-tracking only to the last `*`. */
export function wildcardMatch(text: string, pattern: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pc = pattern.charCodeAt(p);
    if (p < pattern.length && (pc === 63 /* ? */ || pc === text.charCodeAt(t))) {
      p++;
      t++;
    } else if (p < pattern.length && pc === 42 /* * */) {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 42) p++;
  return p === pattern.length;
}

/**
 * Could `text` be extended to a string that matches `pattern`? (Ranger's wildcardPrefixMatch,
 * used for SELF_OR_PREFIX listing.) Simulates the pattern's position set over `text`: any live
 * position can be completed, so the answer is "some position survives".
 */
export function wildcardPrefixMatch(text: string, pattern: string): boolean {
  const n = pattern.length;
  let live = new Uint8Array(n + 1);
  const close = (set: Uint8Array): void => {
    for (let i = 0; i < n; i++) if (set[i] && pattern.charCodeAt(i) === 42) set[i + 1] = 1;
  };
  live[0] = 1;
  close(live);
  for (let t = 0; t < text.length; t++) {
    const c = text.charCodeAt(t);
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!live[i]) continue;
      const pc = pattern.charCodeAt(i);
      if (pc === 42) {
        next[i] = 1;
        any = true;
      } else if (pc === 63 || pc === c) {
        next[i + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    close(next);
    live = next;
  }
  return true;
}

export function hasWildcard(value: string): boolean {
  return value.includes('*') || value.includes('?');
}
