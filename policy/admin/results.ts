/**
 * What an access-control statement answers: its command tag, the rows of a
 * SHOW or CHECK ACCESS, and its notices. Its own module, so that the room
 * (room.ts) and the statements it delegates to (checkAccess.ts, showGrants.ts)
 * share it without importing each other.
 */

/** Something the statement did that the user should know (PostgreSQL's NOTICE). */
export interface AdminNotice {
  message: string;
  hint?: string;
}

export interface AdminResult {
  tag: string;
  columns?: { name: string; type: 'text' | 'bool' | 'timestamptz' }[];
  rows?: (string | null)[][];
  notices?: AdminNotice[];
}
