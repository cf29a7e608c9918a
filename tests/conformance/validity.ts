/**
 * Conformance driver for Ranger's validity-scheduler fixtures
 * (`policyengine/validityscheduler/*.json`, driven in Ranger by TestPolicyEngine.runValiditySchedulerTests).
 *
 * Each fixture entry is `{name, validitySchedules, accessTime, result {isValid,
 * validationFailureCount, isApplicable}}`. Ranger's harness:
 *  - sets the JVM default zone to PST — recurrence fields and "now" are read in that zone, so
 *    this driver passes `localTimeZone: 'PST'`;
 *  - validates every schedule into one shared failure list; the case is valid only if all are;
 *  - evaluates applicability only when all schedules are valid (else isApplicable = false).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { parseRangerAccessTime } from '../../policy/ranger/conditions/rangerDates.js';
import { compileValiditySchedules, type ValiditySchedule } from '../../policy/ranger/conditions/validity.js';
import { validateSchedule } from '../../policy/ranger/conditions/validityValidator.js';
import { conformanceDir, type CaseResult, type Driver, type FileResult, readFixture } from './harness.js';

const FOLDER = 'policyengine/validityscheduler';
const JVM_DEFAULT_ZONE = 'PST';

interface ValidityCase {
  name: string;
  validitySchedules: ValiditySchedule[];
  accessTime: string;
  result: { isValid: boolean; validationFailureCount: number; isApplicable: boolean };
}

function runCase(c: ValidityCase): CaseResult {
  const accessTime = parseRangerAccessTime(c.accessTime);
  if (!accessTime) return { name: c.name, status: 'fail', detail: `unreadable accessTime '${c.accessTime}'` };

  const failures: string[] = [];
  let isValid = true;
  for (const schedule of c.validitySchedules) {
    const v = validateSchedule(schedule, { now: accessTime, localTimeZone: JVM_DEFAULT_ZONE });
    failures.push(...v.failures);
    isValid = isValid && v.isValid;
  }

  let isApplicable = false;
  let error: string | undefined;
  if (isValid) {
    try {
      isApplicable = compileValiditySchedules(c.validitySchedules, { localTimeZone: JVM_DEFAULT_ZONE })(accessTime);
    } catch (e) {
      error = (e as Error).message;
    }
  }

  const got = { isValid, validationFailureCount: failures.length, isApplicable };
  const want = c.result;
  const same =
    error === undefined &&
    got.isValid === want.isValid &&
    got.isApplicable === want.isApplicable &&
    got.validationFailureCount === want.validationFailureCount;
  if (same) return { name: c.name, status: 'pass' };
  return {
    name: c.name,
    status: 'fail',
    detail: `expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}${error ? ` (error: ${error})` : ''} failures=${JSON.stringify(failures)}`,
  };
}

export const validityDriver: Driver = {
  name: 'validity schedules',
  run(): FileResult[] {
    const files = readdirSync(join(conformanceDir(), FOLDER))
      .filter((f) => f.endsWith('.json'))
      .sort();
    return files.map((f) => {
      const file = `${FOLDER}/${f}`;
      const cases = readFixture(file) as ValidityCase[];
      return { file, cases: cases.map(runCase) };
    });
  },
};
