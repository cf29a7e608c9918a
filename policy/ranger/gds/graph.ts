/**
 * The share graph: data shares hold shared resources and sit in datasets
 * (dshid links); datasets sit in projects (dip links). Datasets and projects carry
 * the policies that say who may use what is shared, and may be limited in time;
 * so may each link. Only ACTIVE links are built (GdsPolicyEngine.init).
 */
import { isScheduleApplicable } from '../conditions/validity.js';
import type { ValiditySchedule } from '../model.js';
import { compileExpression, type ExpressionTest } from './expression.js';
import type { DataShareInfo, DatasetInfo, ProjectInfo } from './model.js';
import { type GdsDefs, GdsPolicySet } from './policySet.js';
import { compareSharedResources, type SharedResourceEvaluator } from './sharedResource.js';

/** A validity window; an unreadable one is never active (fail closed). */
function activeAt(schedule: ValiditySchedule | null | undefined, at: Date): boolean {
  if (!schedule) return true;
  try {
    return isScheduleApplicable([schedule], at);
  } catch {
    return false;
  }
}

abstract class Named {
  readonly id: number;
  readonly name: string;
  constructor(id: number, name: string | null | undefined) {
    this.id = id;
    this.name = name?.trim() ? name : '';
  }
}

/** Ranger's eval-order comparators for shares, datasets and projects: name, then id. */
export function byNameThenId(a: Named, b: Named): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;
}

export class ProjectNode extends Named {
  readonly policies: GdsPolicySet;
  private readonly schedule: ValiditySchedule | null;
  constructor(info: ProjectInfo, defs: GdsDefs) {
    super(info.id, info.name);
    this.schedule = info.validitySchedule ?? null;
    this.policies = new GdsPolicySet(info.policies, defs);
  }
  isActive(at: Date): boolean {
    return activeAt(this.schedule, at);
  }
}

export class DipLink {
  constructor(
    readonly project: ProjectNode,
    readonly schedule: ValiditySchedule | null,
  ) {}
  isActive(at: Date): boolean {
    return activeAt(this.schedule, at);
  }
}

export class DatasetNode extends Named {
  readonly policies: GdsPolicySet;
  readonly dips: DipLink[] = [];
  private readonly schedule: ValiditySchedule | null;
  constructor(info: DatasetInfo, defs: GdsDefs) {
    super(info.id, info.name);
    this.schedule = info.validitySchedule ?? null;
    this.policies = new GdsPolicySet(info.policies, defs);
  }
  isActive(at: Date): boolean {
    return activeAt(this.schedule, at);
  }
  isInProject(projectId: number, at: Date): boolean {
    return this.dips.some((d) => d.project.id === projectId && d.isActive(at));
  }
  isInAnyProject(projectNames: ReadonlySet<string>, at: Date): boolean {
    return this.dips.some((d) => projectNames.has(d.project.name) && d.isActive(at));
  }
}

export class DshidLink {
  constructor(
    readonly dataset: DatasetNode,
    readonly schedule: ValiditySchedule | null,
  ) {}
  isActive(at: Date): boolean {
    return activeAt(this.schedule, at);
  }
}

export class DataShareNode extends Named {
  readonly zoneName: string;
  readonly defaultAccessTypes: readonly string[];
  readonly dshids: DshidLink[] = [];
  /** Kept in GdsSharedResourceEvalOrderComparator order. */
  readonly resources: SharedResourceEvaluator[] = [];
  private readonly condition: ExpressionTest | null;
  constructor(info: DataShareInfo) {
    super(info.id, info.name);
    this.zoneName = info.zoneName?.trim() ? info.zoneName : '';
    this.defaultAccessTypes = info.defaultAccessTypes;
    this.condition = compileExpression(info.conditionExpr);
  }
  addResource(r: SharedResourceEvaluator): void {
    this.resources.push(r);
    this.resources.sort(compareSharedResources);
  }
  get isConditional(): boolean {
    return this.condition !== null;
  }
  conditionMatches(req: Parameters<ExpressionTest>[0]): boolean {
    return this.condition === null || this.condition(req);
  }
  isInDataset(datasetId: number, at: Date): boolean {
    return this.dshids.some((l) => l.dataset.id === datasetId && l.isActive(at));
  }
  isInProject(projectId: number, at: Date): boolean {
    return this.dshids.some((l) => l.dataset.isInProject(projectId, at) && l.isActive(at));
  }
}
