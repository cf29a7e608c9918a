/**
 * A policy bundle (ServicePolicies) checked against its service definition
 * before it may replace the set in force.
 *
 * Ranger Admin validates a policy against the def when it is written; a file
 * exported elsewhere, hand-edited, or served with a def that lost its parts is
 * not. The engine then matches nothing (every table 42P01) or throws on the
 * first request (XX000): both fail closed, neither tells the operator why. So
 * every policy's resource types, access types and mask types are checked here,
 * and every problem is named in one error.
 *
 * A def that is a stub — a name and no resources, as some exports carry — is
 * replaced by Apache Ranger's own def for that service type (lakegate's copy in
 * serviceDefs/), and the replacement is reported so it can be logged.
 */
import { ANY_ACCESS } from './accessTypes.js';
import type { Policy, ServiceDef, ServicePolicies } from './model.js';
import { HIVE_SERVICE_DEF } from './serviceDefs/hive.js';
import { POLARIS_SERVICE_DEF } from './serviceDefs/polaris.js';
import { TAG_SERVICE_DEF } from './serviceDefs/tag.js';

/** Service types lakegate carries Apache Ranger's definition of. */
const RANGER_SERVICE_DEFS: Readonly<Record<string, ServiceDef>> = {
  hive: HIVE_SERVICE_DEF,
  polaris: POLARIS_SERVICE_DEF,
  tag: TAG_SERVICE_DEF,
};

/** Marker access types Ranger adds to every def (reference: RangerServiceDefHelper). */
const MARKER_ACCESS_TYPES = ['_create', '_read', '_update', '_delete', '_manage', '_all', ANY_ACCESS];

export class PolicyBundleError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(message);
    this.name = 'PolicyBundleError';
  }
}

export interface CheckedBundle {
  policies: ServicePolicies;
  /** Service types whose stub def was replaced by Ranger's (`hive`, `tag`, …). */
  replacedStubs: string[];
}

/** A def naming no resources cannot match any policy: it is a stub, not a definition. */
export function isStubServiceDef(def: ServiceDef | null | undefined): boolean {
  return !def || def.resources.length === 0;
}

/** Apache Ranger's def for a service type, or null when lakegate has no copy of it. */
export function rangerServiceDef(serviceType: string): ServiceDef | null {
  return RANGER_SERVICE_DEFS[serviceType.toLowerCase()] ?? null;
}

/**
 * The bundle with stub defs replaced, after checking every policy against its
 * def. Throws PolicyBundleError naming every policy that uses what its def lacks.
 */
export function checkPolicyBundle(bundle: ServicePolicies): CheckedBundle {
  const replacedStubs: string[] = [];
  const problems: string[] = [];
  const service = bundle.serviceName || '(unnamed)';

  const serviceDef = resolveDef(bundle.serviceDef, 'serviceDef', replacedStubs, problems);
  let tagPolicies = bundle.tagPolicies ?? null;
  // Without a tag def the engine builds no tag repository (tag policies never match): left as served.
  if (tagPolicies?.serviceDef && tagPolicies.policies.length > 0) {
    const tagDef = resolveDef(tagPolicies.serviceDef, 'tagPolicies.serviceDef', replacedStubs, problems, 'tag');
    if (tagDef) {
      tagPolicies = { ...tagPolicies, serviceDef: tagDef };
      for (const p of tagPolicies.policies) problems.push(...checkTagPolicy(p, tagDef));
    }
  }
  if (serviceDef) {
    const zonePolicies = Object.values(bundle.securityZones).flatMap((z) => z.policies);
    for (const p of [...bundle.policies, ...zonePolicies]) problems.push(...checkPolicy(p, serviceDef));
  }
  if (problems.length > 0) {
    throw new PolicyBundleError(
      `policy bundle of service "${service}" refused: ${problems.join('; ')}`,
      problems,
    );
  }
  return {
    policies: { ...bundle, serviceDef: serviceDef!, tagPolicies },
    replacedStubs,
  };
}

function resolveDef(
  def: ServiceDef,
  where: string,
  replaced: string[],
  problems: string[],
  fallbackType?: string,
): ServiceDef | null {
  if (!isStubServiceDef(def)) return def;
  const type = def.name || fallbackType || '';
  const ranger = rangerServiceDef(type);
  if (!ranger) {
    problems.push(
      type
        ? `${where} "${type}" names no resources and lakegate has no copy of Apache Ranger's definition of that service type (it has ${Object.keys(RANGER_SERVICE_DEFS).join(', ')}): include the full service definition`
        : `${where} is missing or names no resources and no service type: include the full service definition`,
    );
    return null;
  }
  replaced.push(ranger.name);
  return ranger;
}

function label(p: Policy): string {
  return `policy ${p.id ?? '(no id)'} "${p.name}"`;
}

function resourceNames(p: Policy): Set<string> {
  const out = new Set<string>();
  for (const map of [p.resources, ...p.additionalResources]) for (const k of Object.keys(map)) out.add(k);
  return out;
}

function accessNames(p: Policy): Set<string> {
  const items = [
    ...p.policyItems,
    ...p.denyPolicyItems,
    ...p.allowExceptions,
    ...p.denyExceptions,
    ...p.dataMaskPolicyItems,
    ...p.rowFilterPolicyItems,
  ];
  return new Set(items.flatMap((i) => i.accesses.map((a) => a.type)));
}

const quoted = (names: Iterable<string>): string => [...names].map((n) => `"${n}"`).join(', ');

/** What a resource-service policy uses that its def lacks, one line per kind. */
function checkPolicy(p: Policy, def: ServiceDef): string[] {
  const out: string[] = [];
  const defResources = new Set(def.resources.map((r) => r.name));
  const defAccess = new Set([...def.accessTypes, ...def.markerAccessTypes].map((a) => a.name.toLowerCase()));
  for (const a of MARKER_ACCESS_TYPES) defAccess.add(a);

  const unknownResources = [...resourceNames(p)].filter((r) => !defResources.has(r));
  if (unknownResources.length > 0) out.push(`${label(p)}: resource type ${quoted(unknownResources)} not in service def ${def.name}`);

  if (p.policyType === 1 || p.policyType === 2) {
    const kind = p.policyType === 1 ? 'dataMaskDef' : 'rowFilterDef';
    const sub = p.policyType === 1 ? def.dataMaskDef : def.rowFilterDef;
    const allowed = new Set((sub?.resources ?? []).map((r) => r.name));
    if (allowed.size === 0) out.push(`${label(p)}: service def ${def.name} has no ${kind} (it supports no ${p.policyType === 1 ? 'masking' : 'row filter'} policies)`);
    else {
      const outside = [...resourceNames(p)].filter((r) => defResources.has(r) && !allowed.has(r));
      if (outside.length > 0) out.push(`${label(p)}: resource type ${quoted(outside)} not in the ${kind} of service def ${def.name}`);
    }
    for (const a of sub?.accessTypes ?? []) defAccess.add(a.name.toLowerCase());
  }

  const unknownAccess = [...accessNames(p)].filter((a) => !defAccess.has(a.toLowerCase()));
  if (unknownAccess.length > 0) out.push(`${label(p)}: access type ${quoted(unknownAccess)} not in service def ${def.name}`);

  if (p.policyType === 1) {
    const maskTypes = new Set((def.dataMaskDef?.maskTypes ?? []).map((m) => m.name));
    const used = new Set(p.dataMaskPolicyItems.map((i) => i.dataMaskInfo?.dataMaskType).filter((t): t is string => !!t));
    const unknownMasks = [...used].filter((t) => !maskTypes.has(t));
    if (unknownMasks.length > 0) out.push(`${label(p)}: mask type ${quoted(unknownMasks)} not in the dataMaskDef of service def ${def.name}`);
  }
  return out;
}

/**
 * Tag policies name access and mask types of every component (`hive:select`,
 * `hive:MASK`), which Ranger adds to the tag def at run time; only their
 * resource types are the tag def's own.
 */
function checkTagPolicy(p: Policy, def: ServiceDef): string[] {
  const defResources = new Set(def.resources.map((r) => r.name));
  const unknown = [...resourceNames(p)].filter((r) => !defResources.has(r));
  return unknown.length > 0 ? [`tag ${label(p)}: resource type ${quoted(unknown)} not in service def ${def.name}`] : [];
}
