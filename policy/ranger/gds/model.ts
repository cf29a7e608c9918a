/**
 * ServiceGdsInfo: the Governed Data Sharing bundle Ranger Admin serves a plugin
 * (data shares, their shared resources, datasets, projects, and the links
 * between them), validated at the boundary like ../model.ts does for policies.
 *
 * Absent collections arrive as missing keys or nulls, so every list defaults to
 * empty. Anything malformed is refused as a whole with the JSON path of the first
 * problem: a half-loaded share graph could grant what Admin never granted.
 */
import { z } from 'zod';
import { PolicyModelError, PolicyResourceSchema, PolicySchema, ServiceDefSchema, ValidityScheduleSchema } from '../model.js';

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v): z.output<T>[] => v ?? []);

/** Ranger's GdsShareStatus; only ACTIVE links take part in evaluation. */
const status = z.enum(['NONE', 'REQUESTED', 'GRANTED', 'DENIED', 'ACTIVE']);

const MaskInfoSchema = z.object({
  values: list(z.string()),
  maskInfo: z
    .object({ dataMaskType: z.string().nullish(), conditionExpr: z.string().nullish(), valueExpr: z.string().nullish() })
    .nullish(),
});
export type GdsMaskInfo = z.output<typeof MaskInfoSchema>;

const DataShareInfoSchema = z.object({
  id: z.number(),
  name: z.string().nullish(),
  zoneName: z.string().nullish(),
  conditionExpr: z.string().nullish(),
  defaultAccessTypes: list(z.string()),
  defaultTagMasks: list(MaskInfoSchema),
});
export type DataShareInfo = z.output<typeof DataShareInfoSchema>;

const SharedResourceInfoSchema = z.object({
  id: z.number(),
  name: z.string().nullish(),
  dataShareId: z.number(),
  resource: z
    .record(z.string(), PolicyResourceSchema)
    .nullish()
    .transform((v) => v ?? {}),
  subResource: PolicyResourceSchema.nullish(),
  subResourceType: z.string().nullish(),
  conditionExpr: z.string().nullish(),
  /** null (not empty) means "the data share's default access types". */
  accessTypes: z.array(z.string()).nullish(),
  rowFilter: z.object({ filterExpr: z.string().nullish() }).nullish(),
  subResourceMasks: list(MaskInfoSchema),
  profiles: list(z.string()),
});
export type SharedResourceInfo = z.output<typeof SharedResourceInfoSchema>;

const principalSetShape = {
  id: z.number(),
  name: z.string().nullish(),
  validitySchedule: ValidityScheduleSchema.nullish(),
  policies: list(PolicySchema),
};
const DatasetInfoSchema = z.object(principalSetShape);
const ProjectInfoSchema = z.object(principalSetShape);
export type DatasetInfo = z.output<typeof DatasetInfoSchema>;
export type ProjectInfo = z.output<typeof ProjectInfoSchema>;

const DshidSchema = z.object({
  dataShareId: z.number(),
  datasetId: z.number(),
  status: status.nullish(),
  validitySchedule: ValidityScheduleSchema.nullish(),
  profiles: list(z.string()),
});
export type DataShareInDatasetInfo = z.output<typeof DshidSchema>;

const DipSchema = z.object({
  datasetId: z.number(),
  projectId: z.number(),
  status: status.nullish(),
  validitySchedule: ValidityScheduleSchema.nullish(),
  profiles: list(z.string()),
});
export type DatasetInProjectInfo = z.output<typeof DipSchema>;

export const ServiceGdsInfoSchema = z.object({
  serviceName: z.string().nullish(),
  dataShares: list(DataShareInfoSchema),
  resources: list(SharedResourceInfoSchema),
  datasets: list(DatasetInfoSchema),
  projects: list(ProjectInfoSchema),
  dshids: list(DshidSchema),
  dips: list(DipSchema),
  isDelta: z.boolean().nullish(),
  gdsServiceDef: ServiceDefSchema.nullish(),
  gdsLastUpdateTime: z.number().nullish(),
  gdsVersion: z.number().nullish(),
});
export type ServiceGdsInfo = z.output<typeof ServiceGdsInfoSchema>;

export function parseServiceGdsInfo(json: unknown, source: string): ServiceGdsInfo {
  const r = ServiceGdsInfoSchema.safeParse(json);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  let path = '$';
  for (const p of issue.path) path += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  throw new PolicyModelError(`invalid ServiceGdsInfo from ${source} at ${path}: ${issue.message}`, path);
}
