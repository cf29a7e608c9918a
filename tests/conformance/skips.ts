/**
 * Every conformance case lakegate does not run, with the reason, in one place.
 * Keys are fixture paths relative to the conformance folder; `*` skips a whole
 * file. Anything not listed here runs and must pass.
 */

const SKIPS: Record<string, Record<string, string>> = {
  // --- add entries above this line (one block per fixture file) ---
};

export function skipReason(file: string, caseName: string): string | undefined {
  const f = SKIPS[file];
  return f?.[caseName] ?? f?.['*'];
}

export function allSkips(): Readonly<Record<string, Readonly<Record<string, string>>>> {
  return SKIPS;
}
