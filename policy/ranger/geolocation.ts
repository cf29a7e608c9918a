/**
 * Ranger's file-based geolocation context enricher (RangerFileBasedGeolocationProvider):
 * a CSV of IP ranges whose first line names the columns (`FROM_IP,TO_IP,COUNTRY_CODE,…`);
 * the client address is looked up and every column of the matching row becomes the
 * request attribute `LOCATION_<prefix><COLUMN>`, which conditions then read.
 * Addresses are dotted IPv4 or, with IPInDotFormat=false, plain integers.
 */

interface Range {
  from: number;
  to: number;
  values: string[];
}

export class GeolocationTable {
  private readonly columns: string[];
  private readonly ranges: Range[] = [];

  constructor(
    text: string,
    private readonly opts: { ipInDotFormat: boolean; prefix: string },
  ) {
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    this.columns = (lines.shift() ?? '').split(',').map((c) => c.trim());
    for (const line of lines) {
      const cells = line.split(',').map((c) => c.trim());
      const from = this.address(cells[0] ?? '');
      const to = this.address(cells[1] ?? '');
      if (from === null || to === null) continue;
      this.ranges.push({ from, to, values: cells });
    }
  }

  private address(text: string): number | null {
    if (!this.opts.ipInDotFormat) return /^\d+$/.test(text) ? Number(text) : null;
    return ipv4ToNumber(text);
  }

  /** The request attributes for a client address; empty when the address is unknown. */
  attributesFor(ip: string | undefined): Record<string, string> {
    const n = ip === undefined ? null : ipv4ToNumber(ip);
    if (n === null) return {};
    const row = this.ranges.find((r) => r.from <= n && n <= r.to);
    if (!row) return {};
    const out: Record<string, string> = {};
    this.columns.forEach((c, i) => {
      const v = row.values[i];
      if (v !== undefined && v !== '') out[`LOCATION_${this.opts.prefix}${c}`] = v;
    });
    return out;
  }
}

export function ipv4ToNumber(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}
