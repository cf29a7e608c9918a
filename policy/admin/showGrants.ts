/**
 * SHOW GRANTS: one row per (access type, grantee) of every access policy on
 * the polaris service, allow and deny items both (sqe's columns:
 * privilege, resource, grantee_type, grantee_name, effect, granted_by,
 * granted_at). `resource` is catalog.namespace.table with the root left out;
 * ON matches on dot boundaries; TO matches the grantee. `granted_by` is
 * the grantee's own grantors (sqe's `chm-grantor:<KIND>:<grantee>:<grantor>`)
 * and any grantor an earlier `chm-grantor:<grantor>` names without a grantee.
 */
import type { Json } from './merge.js';
import { parseGrantorLabel, parseLabel } from './plan.js';
import type { AdminResult } from './results.js';
import type { Grantee } from './statement.js';

interface Item {
  accesses?: { type: string; isAllowed?: boolean }[];
  users?: string[];
  roles?: string[];
  groups?: string[];
}

export const SHOW_GRANTS_COLUMNS: AdminResult['columns'] = [
  { name: 'privilege', type: 'text' },
  { name: 'resource', type: 'text' },
  { name: 'grantee_type', type: 'text' },
  { name: 'grantee_name', type: 'text' },
  { name: 'effect', type: 'text' },
  { name: 'granted_by', type: 'text' },
  { name: 'granted_at', type: 'timestamptz' },
];

/** PostgreSQL's text form of a timestamptz in UTC. */
export function pgTimestamptz(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-12-01T14:00:00.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23).replace(/\.?0+$/, '')}+00`;
}

function dotted(resources: unknown): string {
  const r = (resources ?? {}) as Record<string, { values?: string[] }>;
  const parts: string[] = [];
  for (const k of ['catalog', 'namespace', 'table', 'principal', 'policy']) {
    const v = r[k]?.values;
    if (v && v.length > 0) parts.push(v.join(',').replaceAll('/', '.'));
  }
  return parts.join('.');
}

/** The rows one policy gives under the filter, unsorted. */
export function policyRows(p: Json, filter: { on?: string; to?: Grantee }): (string | null)[][] {
  const rows: (string | null)[][] = [];
  if ((p['policyType'] ?? 0) !== 0 || p['isEnabled'] === false) return rows;
  const resource = dotted(p['resources']);
  if (filter.on !== undefined && resource.toLowerCase() !== filter.on.toLowerCase() && !resource.toLowerCase().startsWith(`${filter.on.toLowerCase()}.`)) return rows;
  const labels = (p['policyLabels'] as string[] | undefined) ?? [];
  const grantorLabels = labels.map(parseGrantorLabel).filter((g) => g !== null);
  const grantorsOf = (type: string, name: string): string | null => {
    const field = type === 'USER' ? 'users' : 'roles';
    const all = grantorLabels.filter((g) => g.grantee === null || (g.grantee.field === field && g.grantee.name === name)).map((g) => g.grantor);
    return all.length > 0 ? [...new Set(all)].join(',') : null;
  };
  const groups = new Set(labels.map(parseLabel).filter((l) => l?.grantee.type === 'GROUP').map((l) => l!.grantee.name));
  const at = typeof p['updateTime'] === 'number' ? pgTimestamptz(p['updateTime']) : null;
  for (const [list, effect] of [['policyItems', 'ALLOW'], ['denyPolicyItems', 'DENY']] as const) {
    for (const item of (p[list] as Item[] | undefined) ?? []) {
      const who: [string, string][] = [
        ...(item.users ?? []).map((n): [string, string] => ['USER', n]),
        ...(item.roles ?? []).map((n): [string, string] => [groups.has(n) ? 'GROUP' : 'ROLE', n]),
        ...(item.groups ?? []).map((n): [string, string] => ['GROUP', n]),
      ];
      for (const [type, name] of who) {
        if (filter.to && !(filter.to.name === name && (filter.to.type === type || (filter.to.type !== 'USER' && type !== 'USER')))) continue;
        const grantedBy = grantorsOf(type, name);
        for (const a of item.accesses ?? []) {
          if (a.isAllowed === false) continue;
          rows.push([a.type, resource, type, name, effect, grantedBy, at]);
        }
      }
    }
  }
  return rows;
}

export function showGrants(policies: Json[], filter: { on?: string; to?: Grantee }): AdminResult {
  const rows = policies.flatMap((p) => policyRows(p, filter));
  const key = (r: (string | null)[]) => [r[1], r[3], r[2], r[4], r[0]] as string[];
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
  return { tag: `SELECT ${rows.length}`, columns: SHOW_GRANTS_COLUMNS, rows };
}
