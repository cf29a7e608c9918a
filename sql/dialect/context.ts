/**
 * What the dialect knows of the statement's session while it rewrites: the
 * names it resolves against, the session's settings, and where a name probe
 * reports what it did not find. Its own module, so the registry's rules
 * (rule.ts) and the family modules can name it without importing the walk
 * that applies them (dialect.ts).
 */
import type { RelationCatalog } from '../catalogView.js';
import type { SqlError } from '../errors.js';
import type { ResolveContext } from '../resolve.js';

export interface DialectContext extends ResolveContext {
  settings: (name: string) => string | undefined;
  backendPid: number;
  catalog: RelationCatalog;
  /** A name probe answered NULL instead of failing (to_regclass of a missing or hidden relation), for the audit trail. */
  probeMissed?: (miss: ProbeMiss) => void;
}

/** A relation a probe looked for and did not find (or may not see), with the error the probe absorbed. */
export interface ProbeMiss {
  schema?: string;
  name: string;
  error: SqlError;
}

