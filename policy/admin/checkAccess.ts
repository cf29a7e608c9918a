/**
 * CHECK ACCESS priv ON obj FOR USER u: the privilege's own access types at its
 * level, decided by the polaris-service engine in force (roles from its role
 * store, deny beats allow, wildcards), as Polaris would decide them.
 */
import type { PolicyEngine } from '../ranger/engine.js';
import type { LevelWrite } from './plan.js';
import type { AdminResult } from './results.js';

export function checkAccess(engine: PolicyEngine, user: string, w: LevelWrite, realm: string): AdminResult {
  const resource = { ...w.resource, root: realm };
  const results = w.types.map((accessType) => ({ accessType, r: engine.isAccessAllowed({ resource, accessType, user, userGroups: new Set() }) }));
  const refused = results.find((x) => !(x.r.isAccessDetermined && x.r.isAllowed));
  let reason: string;
  if (!refused) {
    const ids = [...new Set(results.map((x) => x.r.policyId))].sort((a, b) => a - b);
    reason = `Allowed via policy ${ids.join(', ')}`;
  } else if (refused.r.isAccessDetermined && refused.r.policyId >= 0) {
    reason = `Denied by policy ${refused.r.policyId}: ${user} ${refused.accessType} on ${w.display}`;
  } else {
    reason = `No matching grant for ${user} ${refused.accessType} on ${w.display}`;
  }
  return {
    tag: 'SELECT 1',
    columns: [
      { name: 'allowed', type: 'bool' },
      { name: 'reason', type: 'text' },
    ],
    rows: [[refused ? 'f' : 't', reason]],
  };
}
