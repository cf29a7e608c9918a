/**
 * The JSON Ranger Admin serves to a plugin, validated at the boundary: the policy
 * bundle (ServicePolicies), RangerRoles, ServiceTags, service definitions and the
 * user store. Field names and defaults follow reference/ranger.md §1 and §10.
 *
 * Ranger writes absent collections either as missing keys or as null (Jackson
 * omits, Gson writes null), so every collection is `nullish` with a default.
 * Unknown fields are dropped. Anything malformed is refused as a whole with the
 * JSON path of the first problem: a half-loaded policy set would fail open.
 */
import { z } from 'zod';

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);

const record = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value)
    .nullish()
    .transform((v): Record<string, z.output<T>> => v ?? {});

const flag = (fallback: boolean) =>
  z
    .boolean()
    .nullish()
    .transform((v) => v ?? fallback);

/** Ranger writes service-def options both as strings ("false") and as booleans. */
const optionValue = z.union([z.string(), z.boolean(), z.number()]).transform((v) => String(v));

/** Jackson writes dates as epoch millis, Gson cache files as `yyyyMMdd-HH:mm:ss.SSS-Z`. */
const date = z.union([z.number(), z.string()]).nullish();

// ---------------------------------------------------------------- service definition

export const ResourceDefSchema = z.object({
  itemId: z.number().nullish(),
  name: z.string(),
  type: z.string().nullish(),
  level: z.number().nullish(),
  parent: z.string().nullish(),
  mandatory: z.boolean().nullish(),
  lookupSupported: z.boolean().nullish(),
  recursiveSupported: z.boolean().nullish(),
  excludesSupported: z.boolean().nullish(),
  matcher: z.string().nullish(),
  matcherOptions: record(optionValue),
  accessTypeRestrictions: list(z.string()),
  isValidLeaf: z.boolean().nullish(),
  label: z.string().nullish(),
  description: z.string().nullish(),
});
export type ResourceDef = z.output<typeof ResourceDefSchema>;

export const AccessTypeDefSchema = z.object({
  itemId: z.number().nullish(),
  name: z.string(),
  label: z.string().nullish(),
  category: z.string().nullish(),
  impliedGrants: list(z.string()),
});
export type AccessTypeDef = z.output<typeof AccessTypeDefSchema>;

export const PolicyConditionDefSchema = z.object({
  itemId: z.number().nullish(),
  name: z.string(),
  evaluator: z.string().nullish(),
  evaluatorOptions: record(optionValue),
  label: z.string().nullish(),
  description: z.string().nullish(),
});
export type PolicyConditionDef = z.output<typeof PolicyConditionDefSchema>;

export const ContextEnricherDefSchema = z.object({
  itemId: z.number().nullish(),
  name: z.string(),
  enricher: z.string(),
  enricherOptions: record(optionValue),
});
export type ContextEnricherDef = z.output<typeof ContextEnricherDefSchema>;

export const DataMaskTypeDefSchema = z.object({
  itemId: z.number().nullish(),
  name: z.string(),
  label: z.string().nullish(),
  description: z.string().nullish(),
  transformer: z.string().nullish(),
  dataMaskOptions: record(optionValue),
});
export type DataMaskTypeDef = z.output<typeof DataMaskTypeDefSchema>;

/** Mask and row-filter defs list resources by name and override only some fields. */
const PartialResourceDefSchema = ResourceDefSchema.partial().extend({ name: z.string() });

const DataMaskDefSchema = z.object({
  maskTypes: list(DataMaskTypeDefSchema),
  accessTypes: list(AccessTypeDefSchema),
  resources: list(PartialResourceDefSchema),
});
const RowFilterDefSchema = z.object({
  accessTypes: list(AccessTypeDefSchema),
  resources: list(PartialResourceDefSchema),
});

export const ServiceDefSchema = z.object({
  id: z.number().nullish(),
  guid: z.string().nullish(),
  name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  displayName: z.string().nullish(),
  implClass: z.string().nullish(),
  label: z.string().nullish(),
  description: z.string().nullish(),
  version: z.number().nullish(),
  isEnabled: flag(true),
  resources: list(ResourceDefSchema),
  accessTypes: list(AccessTypeDefSchema),
  markerAccessTypes: list(AccessTypeDefSchema),
  policyConditions: list(PolicyConditionDefSchema),
  contextEnrichers: list(ContextEnricherDefSchema),
  dataMaskDef: DataMaskDefSchema.nullish(),
  rowFilterDef: RowFilterDefSchema.nullish(),
  options: record(optionValue),
});
export type ServiceDef = z.output<typeof ServiceDefSchema>;

// ---------------------------------------------------------------- policies

export const PolicyResourceSchema = z.object({
  values: list(z.string()),
  isExcludes: flag(false),
  isRecursive: flag(false),
});
export type PolicyResource = z.output<typeof PolicyResourceSchema>;
export const ResourceMapSchema = record(PolicyResourceSchema);
export type ResourceMap = Record<string, PolicyResource>;

export const ConditionSchema = z.object({ type: z.string(), values: list(z.string()) });
export type Condition = z.output<typeof ConditionSchema>;

const AccessSchema = z.object({ type: z.string(), isAllowed: flag(true) });

const itemShape = {
  accesses: list(AccessSchema),
  users: list(z.string()),
  groups: list(z.string()),
  roles: list(z.string()),
  conditions: list(ConditionSchema),
  delegateAdmin: flag(false),
};
export const PolicyItemSchema = z.object(itemShape);
export type PolicyItem = z.output<typeof PolicyItemSchema>;

export const DataMaskPolicyItemSchema = z.object({
  ...itemShape,
  dataMaskInfo: z
    .object({
      dataMaskType: z.string().nullish(),
      conditionExpr: z.string().nullish(),
      valueExpr: z.string().nullish(),
    })
    .nullish(),
});
export type DataMaskPolicyItem = z.output<typeof DataMaskPolicyItemSchema>;

export const RowFilterPolicyItemSchema = z.object({
  ...itemShape,
  rowFilterInfo: z.object({ filterExpr: z.string().nullish() }).nullish(),
});
export type RowFilterPolicyItem = z.output<typeof RowFilterPolicyItemSchema>;

/** A missing recurrence field stays blank, as in Ranger (blank day-of-month leaves day-of-week to decide). */
const cronField = z.union([z.string(), z.number()]).nullish().transform((v) => (v == null ? '' : String(v)));

export const ValidityScheduleSchema = z.object({
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
  timeZone: z.string().nullish(),
  recurrences: list(
    z.object({
      schedule: z
        .object({
          minute: cronField,
          hour: cronField,
          dayOfMonth: cronField,
          dayOfWeek: cronField,
          month: cronField,
          year: cronField,
        })
        .nullish(),
      interval: z
        .object({ days: z.number().nullish(), hours: z.number().nullish(), minutes: z.number().nullish() })
        .nullish(),
    }),
  ),
});
export type ValiditySchedule = z.output<typeof ValidityScheduleSchema>;

export const POLICY_TYPE = { access: 0, dataMask: 1, rowFilter: 2 } as const;
export type PolicyType = 0 | 1 | 2;
export const PRIORITY = { normal: 0, override: 1 } as const;

export const PolicySchema = z.object({
  id: z.number().nullish(),
  guid: z.string().nullish(),
  version: z.number().nullish(),
  service: z.string().nullish(),
  name: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  description: z.string().nullish(),
  isEnabled: flag(true),
  isAuditEnabled: flag(true),
  policyType: z
    .union([z.literal(0), z.literal(1), z.literal(2)])
    .nullish()
    .transform((v): PolicyType => v ?? 0),
  policyPriority: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? 0),
  resources: ResourceMapSchema,
  additionalResources: list(ResourceMapSchema),
  conditions: list(ConditionSchema),
  policyItems: list(PolicyItemSchema),
  denyPolicyItems: list(PolicyItemSchema),
  allowExceptions: list(PolicyItemSchema),
  denyExceptions: list(PolicyItemSchema),
  dataMaskPolicyItems: list(DataMaskPolicyItemSchema),
  rowFilterPolicyItems: list(RowFilterPolicyItemSchema),
  validitySchedules: list(ValidityScheduleSchema),
  isDenyAllElse: flag(false),
  policyLabels: list(z.string()),
  zoneName: z.string().nullish(),
  serviceType: z.string().nullish(),
  options: record(z.unknown()),
  createTime: date,
  updateTime: date,
});
export type Policy = z.output<typeof PolicySchema>;

const PolicyDeltaSchema = z.object({
  id: z.number().nullish(),
  changeType: z.number(),
  policiesVersion: z.number().nullish(),
  policy: PolicySchema.nullish(),
});
export type PolicyDelta = z.output<typeof PolicyDeltaSchema>;

const SecurityZoneSchema = z.object({
  zoneName: z.string(),
  resources: list(z.record(z.string(), z.array(z.string()))),
  policies: list(PolicySchema),
  policyDeltas: list(PolicyDeltaSchema),
  tagServiceName: z.string().nullish(),
  containsAssociatedTagService: flag(false),
});
export type SecurityZone = z.output<typeof SecurityZoneSchema>;

export const TagPoliciesSchema = z.object({
  serviceName: z.string().nullish(),
  serviceId: z.number().nullish(),
  policyVersion: z.number().nullish(),
  policyUpdateTime: date,
  policies: list(PolicySchema),
  serviceDef: ServiceDefSchema.nullish(),
  auditMode: z.string().nullish(),
  serviceConfig: record(optionValue),
});

export const ServicePoliciesSchema = z.object({
  serviceName: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  serviceId: z.number().nullish(),
  policyVersion: z.number().nullish(),
  policyUpdateTime: date,
  policies: list(PolicySchema),
  policyDeltas: list(PolicyDeltaSchema),
  serviceDef: ServiceDefSchema.nullish().transform((v) => v ?? ServiceDefSchema.parse({})),
  auditMode: z.string().nullish(),
  tagPolicies: TagPoliciesSchema.nullish(),
  securityZones: record(SecurityZoneSchema),
  serviceConfig: record(optionValue),
});
export type ServicePolicies = z.output<typeof ServicePoliciesSchema>;

// ---------------------------------------------------------------- roles, tags, users

const RoleMemberSchema = z.object({ name: z.string(), isAdmin: flag(false) });

export const RoleSchema = z.object({
  id: z.number().nullish(),
  name: z.string(),
  isEnabled: flag(true),
  description: z.string().nullish(),
  users: list(RoleMemberSchema),
  groups: list(RoleMemberSchema),
  roles: list(RoleMemberSchema),
});
export type Role = z.output<typeof RoleSchema>;

export const RangerRolesSchema = z.object({
  serviceName: z.string().nullish(),
  roleVersion: z.number().nullish(),
  roleUpdateTime: date,
  rangerRoles: list(RoleSchema),
});
export type RangerRoles = z.output<typeof RangerRolesSchema>;

export const TagSchema = z.object({
  id: z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]).nullish(),
  type: z.string(),
  owner: z.number().nullish(),
  attributes: record(z.string()),
  options: record(z.unknown()),
  validityPeriods: list(ValidityScheduleSchema),
});
export type Tag = z.output<typeof TagSchema>;

const numericId = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);

export const ServiceResourceSchema = z.object({
  id: numericId,
  guid: z.string().nullish(),
  serviceName: z.string().nullish(),
  resourceElements: ResourceMapSchema,
  ownerUser: z.string().nullish(),
  resourceSignature: z.string().nullish(),
});
export type ServiceResource = z.output<typeof ServiceResourceSchema>;

export const ServiceTagsSchema = z.object({
  op: z.enum(['add_or_update', 'delete', 'replace']).nullish(),
  serviceName: z.string().nullish(),
  tagVersion: z.number().nullish(),
  tagUpdateTime: date,
  tagDefinitions: record(z.object({ id: z.number().nullish(), name: z.string().nullish() })),
  tags: record(TagSchema),
  serviceResources: list(ServiceResourceSchema),
  // Ranger's JSON reader takes ids written as strings ("7") too (authz-embedded's dev_hive_tag.json).
  resourceToTagIds: record(z.array(z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]))),
  isDelta: flag(false),
});
export type ServiceTags = z.output<typeof ServiceTagsSchema>;

export const UserStoreSchema = z.object({
  userStoreVersion: z.number().nullish(),
  userAttrMapping: record(record(z.string())),
  groupAttrMapping: record(record(z.string())),
  userGroupMapping: record(z.array(z.string())),
});
export type UserStore = z.output<typeof UserStoreSchema>;

// ---------------------------------------------------------------- parsing

export class PolicyModelError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'PolicyModelError';
  }
}

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

function parseWith<T extends z.ZodType>(schema: T, what: string, json: unknown, source: string): z.output<T> {
  const r = schema.safeParse(json);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = jsonPath(issue.path);
  throw new PolicyModelError(`invalid ${what} from ${source} at ${path}: ${issue.message}`, path);
}

export const parseServicePolicies = (json: unknown, source: string) =>
  parseWith(ServicePoliciesSchema, 'ServicePolicies', json, source);
export const parseRangerRoles = (json: unknown, source: string) =>
  parseWith(RangerRolesSchema, 'RangerRoles', json, source);
export const parseServiceTags = (json: unknown, source: string) =>
  parseWith(ServiceTagsSchema, 'ServiceTags', json, source);
export const parseServiceDef = (json: unknown, source: string) =>
  parseWith(ServiceDefSchema, 'service definition', json, source);
export const parsePolicy = (json: unknown, source: string) => parseWith(PolicySchema, 'policy', json, source);
export const parseUserStore = (json: unknown, source: string) =>
  parseWith(UserStoreSchema, 'user store', json, source);
