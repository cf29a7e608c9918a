/**
 * The `gds` service definition dataset and project policies are written against,
 * and how a plugin widens it for its own service.
 *
 * Dataset and project policies grant marker types (`_READ`, `_ALL`, …) or the
 * service's own types; Ranger makes both mean something by giving each gds
 * marker the implied grants the resource service's marker of the same name has,
 * and by appending the service's access types to the gds def.
 */
import { AccessTypes } from '../accessTypes.js';
import { type ServiceDef, ServiceDefSchema } from '../model.js';

export const RESOURCE_DATASET_ID = 'dataset-id';
export const RESOURCE_PROJECT_ID = 'project-id';

/** Ranger's embedded ranger-servicedef-gds.json, for a ServiceGdsInfo that carries none. */
export const EMBEDDED_GDS_SERVICE_DEF: ServiceDef = ServiceDefSchema.parse({
  name: 'gds',
  options: { enableDenyInPolicies: 'false' },
  resources: [RESOURCE_DATASET_ID, RESOURCE_PROJECT_ID].map((name, i) => ({
    itemId: i + 1,
    name,
    level: 1,
    type: 'string',
    mandatory: true,
    matcher: 'org.apache.ranger.plugin.resourcematcher.RangerDefaultResourceMatcher',
    matcherOptions: { wildCard: 'false', ignoreCase: 'false' },
  })),
  accessTypes: ['_CREATE', '_READ', '_UPDATE', '_DELETE', '_MANAGE', '_ALL'].map((name, i) => ({ itemId: i + 1, name, label: name })),
  policyConditions: [
    { itemId: 1, name: 'expression', evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator', evaluatorOptions: { engineName: 'JavaScript' } },
    { itemId: 2, name: 'validitySchedule', evaluator: 'org.apache.ranger.plugin.conditionevaluator.RangerValidityScheduleConditionEvaluator' },
  ],
});

/** A served gds def is used when it names resources; Admin sometimes serves `{}`. */
export function effectiveGdsDef(served: ServiceDef | null | undefined): ServiceDef {
  return served && served.resources.length > 0 ? served : EMBEDDED_GDS_SERVICE_DEF;
}

/** GdsPolicyEngine.preprocess: gds markers inherit the service's implied grants; the service's types are appended. */
export function widenGdsDef(gdsDef: ServiceDef, serviceDef: ServiceDef): ServiceDef {
  const serviceTypes = AccessTypes.of(serviceDef);
  const accessTypes = gdsDef.accessTypes.map((a) => {
    const implied = [...serviceTypes.expand([a.name])].filter((t) => t !== a.name.toLowerCase());
    return { ...a, impliedGrants: [...new Set([...a.impliedGrants, ...implied])] };
  });
  return { ...gdsDef, accessTypes: [...accessTypes, ...serviceDef.accessTypes] };
}
