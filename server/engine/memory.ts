/**
 * Memory sizes as DuckDB spells them ("4GiB", "512MB", "1.5GB", "1000000"),
 * in bytes: the memory watchdog compares resident memory with the same
 * bounds the engines are configured with.
 */
const UNITS: Record<string, number> = {
  b: 1, byte: 1, bytes: 1,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** Bytes, or null when DuckDB would not read it as a size either. */
export function parseMemorySize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return null;
  const unit = m[2]!.toLowerCase();
  const factor = unit === '' ? 1 : UNITS[unit];
  if (factor === undefined) return null;
  return Math.floor(Number(m[1]) * factor);
}

/** A size DuckDB's memory_limit takes, in whole MiB. */
export const mebibytes = (bytes: number): string => `${Math.max(1, Math.floor(bytes / 2 ** 20))}MiB`;
