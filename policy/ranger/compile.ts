/**
 * A policy snapshot (policies, roles, tags, user store) compiled into an engine.
 * The cache calls this for every new snapshot; a throw keeps the last good engine.
 */
import { PolicyEngine, type EngineOptions } from './engine.js';
import { GdsPolicyEngine } from './gds/engine.js';
import type { ServiceGdsInfo } from './gds/model.js';
import { RangerPlugin } from './plugin.js';
import { RoleStore } from './roles.js';
import type { PolicySnapshot } from './sources/source.js';
import { TagStore } from './tags.js';

export type CompileOptions = Omit<EngineOptions, 'roles' | 'tags' | 'userStore'>;

export function compileSnapshot(snapshot: PolicySnapshot, opts: CompileOptions = {}): PolicyEngine {
  return new PolicyEngine(snapshot.policies, {
    ...opts,
    roles: new RoleStore(snapshot.roles),
    tags: snapshot.tags ? new TagStore(snapshot.policies.serviceDef, snapshot.tags) : null,
    userStore: snapshot.userStore,
  });
}

/**
 * The snapshot's engine combined with a GDS engine built from the service's
 * ServiceGdsInfo (when it has one), over the same service def, zones and roles.
 */
export function compilePlugin(snapshot: PolicySnapshot, gdsInfo: ServiceGdsInfo | null = null, opts: CompileOptions = {}): RangerPlugin {
  const engine = compileSnapshot(snapshot, opts);
  const gds = gdsInfo
    ? new GdsPolicyEngine(gdsInfo, snapshot.policies.serviceDef, { roles: engine.roleStore, securityZones: snapshot.policies.securityZones })
    : null;
  return new RangerPlugin(engine, { gds, policies: snapshot.policies });
}
