/**
 * A policy snapshot (policies, roles, tags, user store) compiled into an engine.
 * The cache calls this for every new snapshot; a throw keeps the last good engine.
 */
import { PolicyEngine, type EngineOptions } from './engine.js';
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
