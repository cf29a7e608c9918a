/** What the GDS engine answers for one request (Ranger's GdsAccessResult). */
export interface GdsAccessResult {
  isAllowed: boolean;
  isAudited: boolean;
  /** The dataset or project policy that allowed; -1 when none did. */
  policyId: number;
  policyVersion: number | null;
  /** Names of the active datasets / projects the requested resource is shared through. */
  datasets: Set<string>;
  projects: Set<string>;
  datasetIds: Set<number>;
  allowedByDatasets: Set<string>;
  allowedByProjects: Set<string>;
  /** Data mask (null: unmasked) from the allowed datasets' shared resources. */
  maskType: string | null;
  maskedValue: string | null;
  maskCondition: string | null;
  /** Row filters to AND in; null when some allowed share gives the rows unfiltered. */
  rowFilters: string[] | null;
}

export function emptyResult(): GdsAccessResult {
  return {
    isAllowed: false,
    isAudited: false,
    policyId: -1,
    policyVersion: null,
    datasets: new Set(),
    projects: new Set(),
    datasetIds: new Set(),
    allowedByDatasets: new Set(),
    allowedByProjects: new Set(),
    maskType: null,
    maskedValue: null,
    maskCondition: null,
    rowFilters: null,
  };
}
