/**
 * The gateway the streaming and latency benches measure: the demo (its
 * warehouse, users, catalog gate and data-gate policies) plus one policy a
 * deployment would add for a new schema — alice may read bench.* — so the
 * bench table is read under the same gates as the demo's own tables, not
 * through a weakened demo. Written as a `lakegate serve --config` file.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEMO_RANGER_SERVICE, demoAssetDir, demoConfigInput } from '../../server/demo.js';

interface ServicePolicies {
  policyVersion: number;
  policies: { id: number }[];
}

/** The demo's Ranger policies with the bench grant added, in a folder of their own. */
function benchRangerFolder(dataDir: string): string {
  const folder = join(dataDir, 'bench-ranger');
  mkdirSync(folder, { recursive: true });
  const from = join(demoAssetDir(), 'ranger');
  for (const f of readdirSync(from)) copyFileSync(join(from, f), join(folder, f));
  const file = join(folder, `${DEMO_RANGER_SERVICE}.json`);
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as ServicePolicies;
  bundle.policies.push({
    id: Math.max(...bundle.policies.map((p) => p.id)) + 1,
    name: 'the bench reads bench',
    isEnabled: true,
    isAuditEnabled: true,
    policyType: 0,
    resources: { database: { values: ['bench'] }, table: { values: ['*'] }, column: { values: ['*'] } },
    policyItems: [{ accesses: [{ type: 'select', isAllowed: true }], users: ['alice'] }],
  } as { id: number });
  bundle.policyVersion += 1;
  writeFileSync(file, JSON.stringify(bundle, null, 1));
  return folder;
}

export async function writeBenchConfig(dataDir: string, port: number, out: string): Promise<void> {
  const config = await demoConfigInput({ host: '127.0.0.1', port, dataDir, rangerFolder: benchRangerFolder(dataDir) });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(config, null, 2));
}
