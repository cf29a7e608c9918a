/**
 * Ranger's Governed Data Sharing policy engine (GdsPolicyEngine): is a request on
 * a resource of this service allowed because the resource is shared, through a
 * data share, in a dataset (or a project holding it) whose policies admit the
 * user? And with which mask or row filter?
 *
 * Evaluation goes resource → shares → datasets → projects: the shared resources
 * that let the request through name their data shares; the shares' active
 * datasets are evaluated (name order), then those datasets' active projects. For
 * masks (column requests) and row filters (table requests) the same walk is
 * repeated over the mask/filter-capable resources, whatever the access walk
 * answered; the mask or filters come from the datasets that allowed (directly or
 * via a project).
 */
import { ANY_ACCESS, AccessTypes } from '../accessTypes.js';
import { type EvalRequest, prepareRequest, withResource } from '../evalRequest.js';
import type { SecurityZone, ServiceDef } from '../model.js';
import type { AccessRequest } from '../request.js';
import { RoleStore } from '../roles.js';
import { ZoneMatcher } from '../zones.js';
import { hierarchies, hierarchyHasAll } from '../matchers/hierarchy.js';
import { matcherDef } from '../resourceMatching.js';
import { ResourceAcls } from './acls.js';
import { byNameThenId, DataShareNode, DatasetNode, DipLink, DshidLink, ProjectNode } from './graph.js';
import type { ServiceGdsInfo } from './model.js';
import type { GdsDefs, PolicyVerdict } from './policySet.js';
import { emptyResult, type GdsAccessResult } from './result.js';
import { effectiveGdsDef, RESOURCE_DATASET_ID, RESOURCE_PROJECT_ID, widenGdsDef } from './serviceDef.js';
import { compareSharedResources, type MaskInfo, SharedResourceEvaluator } from './sharedResource.js';

export interface GdsEngineOptions {
  roles?: RoleStore;
  /** Zones of the resource service; a data share in a zone covers only requests in it. */
  securityZones?: Readonly<Record<string, SecurityZone>>;
}

export interface GdsRequest extends AccessRequest {
  /** The zones the resource (or something below it) is in; computed from the engine's zones when absent. */
  zoneNames?: readonly string[];
}

type PolicyType = 0 | 1 | 2;

interface Walk {
  req: GdsRequest;
  ev: EvalRequest;
  accessType: string;
  isAny: boolean;
  at: Date;
}

export class GdsPolicyEngine {
  private readonly serviceDef: ServiceDef;
  private readonly roles: RoleStore;
  private readonly zoneMatcher: ZoneMatcher | null;
  private readonly projects = new Map<number, ProjectNode>();
  private readonly datasets = new Map<number, DatasetNode>();
  /** Only shares that sit in some dataset; the others can never grant. */
  private readonly dataShares = new Map<number, DataShareNode>();
  private readonly zoneResources = new Map<string, SharedResourceEvaluator[]>();

  constructor(info: ServiceGdsInfo, serviceDef: ServiceDef, opts: GdsEngineOptions = {}) {
    this.serviceDef = serviceDef;
    this.roles = opts.roles ?? new RoleStore(null);
    this.zoneMatcher = opts.securityZones && Object.keys(opts.securityZones).length > 0 ? new ZoneMatcher(serviceDef, opts.securityZones) : null;
    const gdsDef = widenGdsDef(effectiveGdsDef(info.gdsServiceDef), serviceDef);
    const defs: GdsDefs = { def: gdsDef, accessTypes: AccessTypes.of(gdsDef) };
    const serviceTypes = AccessTypes.of(serviceDef);

    for (const p of info.projects) this.projects.set(p.id, new ProjectNode(p, defs));
    for (const d of info.datasets) this.datasets.set(d.id, new DatasetNode(d, defs));
    const shares = new Map<number, DataShareNode>();
    for (const s of info.dataShares) shares.set(s.id, new DataShareNode(s));
    for (const l of info.dshids) {
      const share = shares.get(l.dataShareId);
      const dataset = this.datasets.get(l.datasetId);
      if (l.status === 'ACTIVE' && share && dataset) share.dshids.push(new DshidLink(dataset, l.validitySchedule ?? null));
    }
    for (const l of info.dips) {
      const dataset = this.datasets.get(l.datasetId);
      const project = this.projects.get(l.projectId);
      if (l.status === 'ACTIVE' && dataset && project) dataset.dips.push(new DipLink(project, l.validitySchedule ?? null));
    }
    for (const [id, s] of shares) if (s.dshids.length > 0) this.dataShares.set(id, s);
    for (const r of info.resources) {
      const share = this.dataShares.get(r.dataShareId);
      if (!share) continue;
      const ev = new SharedResourceEvaluator(r, share.defaultAccessTypes, serviceDef, serviceTypes);
      share.addResource(ev);
      let list = this.zoneResources.get(share.zoneName);
      if (!list) this.zoneResources.set(share.zoneName, (list = []));
      list.push(ev);
    }
  }

  // ------------------------------------------------------------------ access, mask, row filter

  /** null when the resource is not shared through any active dataset (Ranger returns null too). */
  evaluate(req: GdsRequest): GdsAccessResult | null {
    if (this.datasets.size === 0) return null;
    const walk = this.walkOf(req);
    const result = emptyResult();
    this.evaluateFor(walk, 0, result);
    // Masks and row filters are looked for only on a resource they can apply to
    // (a column for masks, a table for row filters), and independently of the
    // access answer: a table shared with only some of its columns is not
    // accessible as a whole, yet its rows are still filtered (RANGER-5295).
    const keys = Object.keys(req.resource).filter((k) => req.resource[k] !== undefined);
    if (this.isWholeHierarchy(1, keys)) this.evaluateFor(walk, 1, result);
    if (this.isWholeHierarchy(2, keys)) this.evaluateFor(walk, 2, result);
    return result.datasets.size === 0 ? null : result;
  }

  /** The keys are exactly one root-to-leaf path of the mask (1) or row-filter (2) resources. */
  private isWholeHierarchy(policyType: 1 | 2, keys: readonly string[]): boolean {
    const typeDef = policyType === 1 ? this.serviceDef.dataMaskDef : this.serviceDef.rowFilterDef;
    if (!typeDef || typeDef.resources.length === 0 || keys.length === 0) return false;
    return hierarchies(matcherDef(this.serviceDef), policyType).some((h) => h.length === keys.length && hierarchyHasAll(h, keys));
  }

  private walkOf(req: GdsRequest): Walk {
    const accessType = req.accessType === '' ? ANY_ACCESS : req.accessType;
    const roles = req.userRoles && req.userRoles.size > 0 ? req.userRoles : this.roles.rolesFor(req.user, req.userGroups);
    const ev = prepareRequest(req, roles, accessType, [], null);
    return { req, ev, accessType, isAny: accessType === ANY_ACCESS, at: ev.accessTime };
  }

  private evaluateFor(w: Walk, policyType: PolicyType, result: GdsAccessResult): void {
    const shareResources = this.shareResources(w, policyType);
    if (shareResources.size === 0) return;
    const datasets = this.datasetsOf(w, [...shareResources.keys()]);
    if (datasets.size === 0) return;
    const projects = new Map<number, ProjectNode>();
    for (const d of [...datasets.keys()].sort(byNameThenId)) {
      if (!d.isActive(w.at)) continue;
      result.datasets.add(d.name);
      result.datasetIds.add(d.id);
      if (!d.policies.isEmpty) {
        const v = d.policies.evaluate(this.idRequest(w.ev, RESOURCE_DATASET_ID, d.id), w.accessType, w.isAny);
        if (v.isAllowed) result.allowedByDatasets.add(d.name);
        if (v.isAllowed) recordAllow(result, policyType, v);
        if (!result.isAudited) result.isAudited = v.isAudited;
      }
      for (const dip of d.dips) if (dip.isActive(w.at) && dip.project.isActive(w.at)) projects.set(dip.project.id, dip.project);
    }
    for (const p of [...projects.values()].sort(byNameThenId)) {
      result.projects.add(p.name);
      if (p.policies.isEmpty) continue;
      const v = p.policies.evaluate(this.idRequest(w.ev, RESOURCE_PROJECT_ID, p.id), w.accessType, w.isAny);
      if (v.isAllowed) result.allowedByProjects.add(p.name);
      if (v.isAllowed) recordAllow(result, policyType, v);
      if (!result.isAudited) result.isAudited = v.isAudited;
    }
    if (policyType === 0) return;

    // Masks and filters come only from datasets that allowed, directly or through a project.
    const allowed = [...datasets.keys()]
      .filter((d) => result.allowedByDatasets.has(d.name) || d.isInAnyProject(result.allowedByProjects, w.at))
      .sort(byNameThenId);
    if (allowed.length === 0) return;
    const sharesOf = (d: DatasetNode) => [...datasets.get(d)!].sort(byNameThenId);
    if (policyType === 1) Object.assign(result, this.maskOf(w, allowed.map(sharesOf), shareResources));
    else result.rowFilters = rowFiltersOf(allowed.map(sharesOf), shareResources);
  }

  /** A dataset's (project's) view of the request: same principal and access, the id as the only resource. */
  private idRequest(ev: EvalRequest, resourceName: string, id: number): EvalRequest {
    return withResource(ev, { [resourceName]: String(id) });
  }

  /** The shared resources, grouped by data share, that let this request through (getDataShareResources). */
  private shareResources(w: Walk, policyType: PolicyType): Map<DataShareNode, SharedResourceEvaluator[]> {
    const out = new Map<DataShareNode, SharedResourceEvaluator[]>();
    if (this.dataShares.size === 0) return out;
    let zones = w.req.zoneNames ?? this.zoneMatcher?.zonesFor(w.req.resource, true) ?? [];
    if (zones.length === 0) zones = [''];
    else if (zones.length > 1 && !w.isAny) zones = []; // a resource in several zones is only decidable for _any
    const descendants = w.req.resourceMatchingScope === 'SELF_OR_DESCENDANTS';
    for (const zone of zones)
      for (const r of this.zoneResources.get(zone) ?? []) {
        if (policyType === 1 && !r.supportsMask) continue;
        if (policyType === 2 && !r.supportsRowFilter) continue;
        if (!r.isAllowed(w.ev, w.accessType, w.isAny, descendants, policyType)) continue;
        const share = this.dataShares.get(r.dataShareId)!;
        let list = out.get(share);
        if (!list) out.set(share, (list = []));
        if (!list.includes(r)) list.push(r);
      }
    for (const list of out.values()) list.sort(compareSharedResources);
    return out;
  }

  /** Active datasets reached from these shares, each with the shares that reach it (collectDatasets). */
  private datasetsOf(w: Walk, shares: readonly DataShareNode[]): Map<DatasetNode, Set<DataShareNode>> {
    const out = new Map<DatasetNode, Set<DataShareNode>>();
    for (const s of shares) {
      if (!s.conditionMatches(w.ev)) continue;
      for (const l of s.dshids) {
        if (!l.isActive(w.at) || !l.dataset.isActive(w.at)) continue;
        let set = out.get(l.dataset);
        if (!set) out.set(l.dataset, (set = new Set()));
        set.add(s);
      }
    }
    return out;
  }

  /**
   * No mask when any allowed share has a resource that shares the requested
   * column unmasked; otherwise the first resource's mask (setDataMask).
   */
  private maskOf(w: Walk, sharesPerDataset: DataShareNode[][], resources: Map<DataShareNode, SharedResourceEvaluator[]>) {
    const leaf = leafValue(this.serviceDef, w.req.resource);
    let mask: MaskInfo | null = null;
    outer: for (const shares of sharesPerDataset) {
      for (const s of shares) {
        let shareMask: MaskInfo | null = null;
        for (const r of resources.get(s) ?? []) {
          const m = r.maskFor(leaf);
          if (m === null) {
            shareMask = null;
            break;
          }
          shareMask ??= m;
        }
        if (shareMask === null) {
          mask = null;
          break outer;
        }
        mask ??= shareMask;
      }
      if (mask === null) break;
    }
    return { maskType: mask?.dataMaskType ?? null, maskedValue: mask?.valueExpr ?? null, maskCondition: mask?.conditionExpr ?? null };
  }

  // ------------------------------------------------------------------ ACLs

  /** Who may access the resource through GDS, and through which datasets and projects. */
  getResourceACLs(req: GdsRequest): ResourceAcls {
    const acls = new ResourceAcls();
    const w = this.walkOf(req);
    const shares = [...this.shareResources(w, 0).keys()].sort(byNameThenId);
    for (const s of shares) {
      if (!s.conditionMatches(w.ev)) continue;
      for (const r of s.resources) {
        if (!r.isAllowed(w.ev, w.accessType, w.isAny, req.resourceMatchingScope === 'SELF_OR_DESCENDANTS', 0) || !r.coversRequest(w.ev)) continue;
        const conditional = s.isConditional || r.isConditional;
        for (const l of s.dshids) this.datasetAcls(w, l.dataset, acls, conditional || l.schedule !== null, r.allowedAccessTypes);
      }
    }
    acls.finalize();
    return acls;
  }

  private datasetAcls(w: Walk, d: DatasetNode, acls: ResourceAcls, conditional: boolean, types: ReadonlySet<string>): void {
    if (!d.isActive(w.at)) return;
    acls.datasets.add(d.name);
    d.policies.collectAcls(this.idRequest(w.ev, RESOURCE_DATASET_ID, d.id), acls, conditional, types);
    for (const dip of d.dips) {
      const p = dip.project;
      if (!p.isActive(w.at)) continue;
      acls.projects.add(p.name);
      p.policies.collectAcls(this.idRequest(w.ev, RESOURCE_PROJECT_ID, p.id), acls, conditional || dip.schedule !== null, types);
    }
  }

  // ------------------------------------------------------------------ catalogue queries

  /** Datasets whose policies name any of these principals (getDatasetsSharedWith). */
  datasetsSharedWith(users: Iterable<string> = [], groups: Iterable<string> = [], roles: Iterable<string> = []): Set<number> {
    const [u, g, r] = [new Set(users), new Set(groups), new Set(roles)];
    return new Set([...this.datasets.values()].filter((d) => d.policies.hasReference(u, g, r)).map((d) => d.id));
  }

  projectsSharedWith(users: Iterable<string> = [], groups: Iterable<string> = [], roles: Iterable<string> = []): Set<number> {
    const [u, g, r] = [new Set(users), new Set(groups), new Set(roles)];
    return new Set([...this.projects.values()].filter((p) => p.policies.hasReference(u, g, r)).map((p) => p.id));
  }

  /** Ids of the shared resources reachable from these projects, datasets and data shares (getResources). */
  resourceIds(sel: { projectIds?: readonly number[]; datasetIds?: readonly number[]; dataShareIds?: readonly number[] }, at: Date = new Date()): number[] {
    const shares = new Set<DataShareNode>();
    for (const s of this.dataShares.values()) {
      if (sel.projectIds?.some((p) => s.isInProject(p, at))) shares.add(s);
      if (sel.datasetIds?.some((d) => s.isInDataset(d, at))) shares.add(s);
    }
    for (const id of sel.dataShareIds ?? []) {
      const s = this.dataShares.get(id);
      if (s) shares.add(s);
    }
    return [...shares].sort(byNameThenId).flatMap((s) => s.resources.map((r) => r.id));
  }
}

/**
 * The first allowing dataset or project policy is the one reported. Only the
 * access walk grants: a mask or row-filter walk reaches resources the access walk
 * may not (a table whose share names only some columns), and there an allowing
 * policy names the filter's source without making the request allowed.
 */
function recordAllow(result: GdsAccessResult, policyType: PolicyType, v: PolicyVerdict): void {
  if (policyType === 0) {
    if (!result.isAllowed) Object.assign(result, { isAllowed: true, policyId: v.policyId, policyVersion: v.policyVersion });
  } else if (result.policyId === -1) Object.assign(result, { policyId: v.policyId, policyVersion: v.policyVersion });
}

/** Every distinct filter of every allowed share, unless one resource shares the rows unfiltered (setRowFilters). */
function rowFiltersOf(sharesPerDataset: DataShareNode[][], resources: Map<DataShareNode, SharedResourceEvaluator[]>): string[] | null {
  const filters: string[] = [];
  for (const shares of sharesPerDataset)
    for (const s of shares)
      for (const r of resources.get(s) ?? []) {
        if (r.rowFilter === null) return null;
        if (!filters.includes(r.rowFilter)) filters.push(r.rowFilter);
      }
  return filters;
}

/** The requested value of the deepest resource in the request (RangerAccessResource.getLeafName). */
function leafValue(def: ServiceDef, resource: Readonly<Record<string, string | string[]>>): string {
  let best: { level: number; value: string } | null = null;
  for (const rd of def.resources) {
    const v = resource[rd.name];
    if (v === undefined) continue;
    const level = rd.level ?? 0;
    if (!best || level > best.level) best = { level, value: Array.isArray(v) ? `[${v.join(', ')}]` : v };
  }
  return best?.value ?? 'null';
}

