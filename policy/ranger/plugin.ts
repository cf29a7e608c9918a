/**
 * The plugin-level entry point: the policy engine (resource and tag policies)
 * combined with the Governed Data Sharing engine, as Ranger's RangerBasePlugin
 * combines them.
 *
 * In Ranger the GDS engine runs as a context enricher (RangerGdsEnricher): every
 * request is first evaluated by GdsPolicyEngine.evaluate, and the GdsAccessResult
 * rides in the request context; RangerPolicyEngineImpl.updateFromGdsResult then
 * folds it into the access result, and RangerBasePlugin.getResourceACLs merges
 * the GDS ACLs into the policy ACLs (getMergedResourceACLs / overrideACLs). Here
 * the same happens after the fact, on the engine's answers:
 *
 * - access: a GDS allow applies only where no resource or tag policy decided
 *   (not allowed, no deciding policy, not a super-user decision); it reports the
 *   dataset / project policy id and version, at normal priority;
 * - audit: a GDS "audited" settles an audit flag nothing else settled (the
 *   engine's audit filters have already had their say, and Ranger lets them
 *   override either way);
 * - mask / row filter: the GDS mask or filters apply where no mask / row-filter
 *   policy decided (RANGER-5295 makes GDS row filters apply even when access to
 *   the whole table is not granted); several GDS filters are ANDed;
 * - ACLs: per principal and access type a GDS entry replaces the policy entry
 *   when there is none, when its priority is higher, or at equal priority when it
 *   agrees or denies; the datasets and projects are added.
 */
import { ACCESS_DENIED, type AclMap, type AclResult, getResourceACLs, type ResourceACLs } from './acls.js';
import type { PolicyEngine } from './engine.js';
import type { GdsPolicyEngine } from './gds/engine.js';
import type { GdsAccessResult } from './gds/result.js';
import type { ServicePolicies } from './model.js';
import type { AccessRequest, AccessResult, DataMaskResult, RowFilterResult } from './request.js';

/** The priority a GDS answer carries (Ranger's POLICY_PRIORITY_NORMAL). */
const GDS_PRIORITY = 0;

export interface PluginAccessResult extends AccessResult {
  /** Names of the datasets / projects the resource is shared through (null: not shared). */
  datasets: string[] | null;
  projects: string[] | null;
}

export interface PluginDataMaskResult extends DataMaskResult {
  policyVersion: number | null;
}

export interface PluginRowFilterResult extends RowFilterResult {
  policyVersion: number | null;
}

export interface PluginResourceACLs extends ResourceACLs {
  datasets: Set<string>;
  projects: Set<string>;
}

export interface RangerPluginOptions {
  gds?: GdsPolicyEngine | null;
  /**
   * The policies the engine was built from: ACL merging needs each policy's
   * priority, which the engine does not expose. Without them every policy
   * counts as normal priority.
   */
  policies?: ServicePolicies | null;
}

export class RangerPlugin {
  readonly engine: PolicyEngine;
  readonly gds: GdsPolicyEngine | null;
  private readonly priorities = new Map<number, number>();

  constructor(engine: PolicyEngine, opts: RangerPluginOptions = {}) {
    this.engine = engine;
    this.gds = opts.gds ?? null;
    const sp = opts.policies;
    if (sp) {
      const all = [...sp.policies, ...Object.values(sp.securityZones).flatMap((z) => z.policies), ...(sp.tagPolicies?.policies ?? [])];
      for (const p of all) if (typeof p.id === 'number') this.priorities.set(p.id, p.policyPriority);
    }
  }

  /** What the GDS enricher puts in the request context: null when nothing is shared (or no GDS). */
  gdsResult(req: AccessRequest): GdsAccessResult | null {
    return this.gds?.evaluate(req) ?? null;
  }

  isAccessAllowed(req: AccessRequest): PluginAccessResult {
    const r = this.engine.isAccessAllowed(req);
    const g = this.gdsResult(req);
    const out: PluginAccessResult = { ...r, datasets: null, projects: null };
    if (!g) return out;
    const undecided = !r.isAllowed && r.policyId === -1 && r.reason !== 'superuser';
    if (undecided && g.isAllowed)
      Object.assign(out, { isAllowed: true, isAccessDetermined: true, policyId: g.policyId, policyVersion: g.policyVersion, policyPriority: GDS_PRIORITY });
    if (!out.isAuditedDetermined && g.isAudited) Object.assign(out, { isAudited: true, isAuditedDetermined: true });
    out.datasets = [...g.datasets];
    out.projects = [...g.projects];
    return out;
  }

  evalDataMask(req: AccessRequest): PluginDataMaskResult {
    const m = this.engine.evalDataMask(req);
    const out: PluginDataMaskResult = { ...m, policyVersion: null };
    const g = this.gdsResult(req);
    if (!g) return out;
    if (m.policyId === -1 && g.maskType !== null) {
      const transformer = this.engine.serviceDef.dataMaskDef?.maskTypes.find((t) => t.name === g.maskType)?.transformer ?? null;
      Object.assign(out, {
        maskType: g.maskType,
        maskedValue: g.maskedValue,
        maskCondition: g.maskCondition,
        transformer,
        policyId: g.policyId,
        policyVersion: g.policyVersion,
        policyPriority: GDS_PRIORITY,
      });
    }
    if (g.isAudited) out.isAudited = true;
    return out;
  }

  evalRowFilter(req: AccessRequest): PluginRowFilterResult {
    const f = this.engine.evalRowFilter(req);
    const out: PluginRowFilterResult = { ...f, policyVersion: null };
    const g = this.gdsResult(req);
    if (!g) return out;
    if (f.policyId === -1 && g.rowFilters && g.rowFilters.length > 0)
      Object.assign(out, { filterExpr: andFilters(g.rowFilters), policyId: g.policyId, policyVersion: g.policyVersion, policyPriority: GDS_PRIORITY });
    if (g.isAudited) out.isAudited = true;
    return out;
  }

  /** RangerBasePlugin.getResourceACLs: the engine's ACLs with the GDS ACLs merged over them. */
  getResourceACLs(req: AccessRequest): PluginResourceACLs {
    const base: PluginResourceACLs = { ...getResourceACLs(this.engine, req), datasets: new Set(), projects: new Set() };
    if (!this.gds) return base;
    const g = this.gds.getResourceACLs(req);
    this.override(g.userACLs, base.userACLs);
    this.override(g.groupACLs, base.groupACLs);
    this.override(g.roleACLs, base.roleACLs);
    for (const d of g.datasets) base.datasets.add(d);
    for (const p of g.projects) base.projects.add(p);
    return base;
  }

  /** RangerBasePlugin.overrideACLs, GDS entries as the chained ones. */
  private override(gds: AclMap, base: AclMap): void {
    for (const [name, byType] of gds) {
      let mine = base.get(name);
      for (const [accessType, g] of byType) {
        const b = mine?.get(accessType);
        if (b && !this.gdsWins(g, b)) continue;
        if (!mine) base.set(name, (mine = new Map()));
        mine.set(accessType, { result: g.result, isFinal: g.isFinal, policyId: g.policyId });
      }
    }
  }

  private gdsWins(g: AclResult, b: AclResult): boolean {
    const basePriority = this.priorities.get(b.policyId) ?? 0;
    if (GDS_PRIORITY !== basePriority) return GDS_PRIORITY > basePriority;
    return g.result === b.result || g.result === ACCESS_DENIED;
  }
}

/** Several GDS row filters must all hold. */
function andFilters(filters: readonly string[]): string {
  return filters.length === 1 ? filters[0]! : filters.map((f) => `(${f})`).join(' AND ');
}
