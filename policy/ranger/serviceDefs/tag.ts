/**
 * Apache Ranger's `tag` service definition, as Ranger ships it
 * (agents-common/src/main/resources/service-defs/ranger-servicedef-tag.json,
 * apache/ranger master 8e7716c; Apache License 2.0). A bundle whose serviceDef
 * is a stub (`{"name": "tag"}`, as some exports carry) is given this one
 * (policy/ranger/bundle.ts). Kept verbatim: serviceDefs.test.ts compares it with
 * Ranger's file when the conformance fixtures are present.
 */
import { parseServiceDef, type ServiceDef } from '../model.js';

export const TAG_SERVICE_DEF_JSON = {
  "id": 100,
  "name": "tag",
  "displayName": "tag",
  "implClass": "org.apache.ranger.services.tag.RangerServiceTag",
  "label": "TAG",
  "description": "TAG Service Definition",
  "guid": "0d047248-baff-4cf9-8e9e-d5d377284b2e",
  "options": {
    "ui.pages": "tag-based-policies"
  },
  "resources": [
    {
      "itemId": 1,
      "name": "tag",
      "type": "string",
      "level": 1,
      "parent": "",
      "mandatory": true,
      "lookupSupported": true,
      "matcher": "org.apache.ranger.plugin.resourcematcher.RangerDefaultResourceMatcher",
      "matcherOptions": {
        "wildCard": false,
        "ignoreCase": false
      },
      "uiHint": "{ \"singleValue\":true }",
      "label": "TAG",
      "description": "TAG"
    }
  ],
  "accessTypes": [],
  "configs": [
    {
      "itemId": 1,
      "name": "ranger.plugin.audit.filters",
      "type": "string",
      "mandatory": false,
      "label": "Ranger Default Audit Filters",
      "defaultValue": "[ {'accessResult': 'DENIED', 'isAudited': true} ]"
    }
  ],
  "contextEnrichers": [
    {
      "itemId": 1,
      "name": "TagEnricher",
      "enricher": "org.apache.ranger.plugin.contextenricher.RangerTagEnricher",
      "enricherOptions": {
        "tagRetrieverClassName": "org.apache.ranger.plugin.contextenricher.RangerAdminTagRetriever",
        "tagRefresherPollingInterval": 60000
      }
    }
  ],
  "policyConditions": [
    {
      "itemId": 1,
      "name": "accessed-after-expiry",
      "evaluator": "org.apache.ranger.plugin.conditionevaluator.RangerScriptTemplateConditionEvaluator",
      "evaluatorOptions": {
        "scriptTemplate": "ctx.isAccessedAfter('expiry_date');"
      },
      "uiHint": "{ \"singleValue\":true }",
      "label": "Accessed after expiry_date (yes/no)?",
      "description": "Accessed after expiry_date? (yes/no)"
    },
    {
      "itemId": 2,
      "name": "expression",
      "evaluator": "org.apache.ranger.plugin.conditionevaluator.RangerScriptConditionEvaluator",
      "evaluatorOptions": {
        "engineName": "JavaScript",
        "ui.isMultiline": "true"
      },
      "label": "Enter boolean expression",
      "description": "Boolean expression",
      "uiHint": "{ \"isMultiline\":true }"
    }
  ]
} as const;

export const TAG_SERVICE_DEF: ServiceDef = parseServiceDef(TAG_SERVICE_DEF_JSON, 'Apache Ranger tag service def');
