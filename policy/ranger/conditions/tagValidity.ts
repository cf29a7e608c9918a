/**
 * Tag validity periods: a tag whose periods do not cover the access time is not attached.
 * Ranger's ServiceTags carry `validityPeriods`; TestPolicyEngine fixtures put them in
 * `options.TAG_VALIDITY_PERIODS` as a JSON string.
 */
import type { AttachedTag } from './context.js';
import { isScheduleApplicable, type ScheduleOptions, type ValiditySchedule } from './validity.js';

/** A tag as found in fixtures and tag downloads, before normalisation. */
export interface RawTag {
  type: string;
  attributes?: Readonly<Record<string, string>> | null;
  options?: Readonly<Record<string, unknown>> | null;
  matchType?: string | null;
  validityPeriods?: readonly ValiditySchedule[] | null;
}

/** Reads a raw tag into an AttachedTag, lifting `options.TAG_VALIDITY_PERIODS` into validityPeriods. */
export function toAttachedTag(raw: RawTag): AttachedTag {
  let periods: readonly ValiditySchedule[] | undefined = raw.validityPeriods ?? undefined;
  const fromOptions = raw.options?.TAG_VALIDITY_PERIODS;
  if ((!periods || periods.length === 0) && fromOptions !== undefined && fromOptions !== null) {
    periods = (typeof fromOptions === 'string' ? JSON.parse(fromOptions) : fromOptions) as ValiditySchedule[];
  }
  return {
    type: raw.type,
    attributes: raw.attributes ?? {},
    ...(raw.matchType ? { matchType: raw.matchType } : {}),
    ...(periods && periods.length > 0 ? { validityPeriods: periods } : {}),
  };
}

/** Is the tag valid at `accessTime`? No periods: always. Throws InvalidScheduleError if unreadable. */
export function isTagValidAt(tag: AttachedTag, accessTime: Date, options: ScheduleOptions = {}): boolean {
  return isScheduleApplicable(tag.validityPeriods, accessTime, options);
}
