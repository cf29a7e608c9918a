/** SQL quoting for the statements the gateway itself writes for the engine (never for user text). */
export const quoteIdent = (s: string): string => `"${s.replace(/"/g, '""')}"`;
export const quoteLiteral = (s: string): string => `'${s.replace(/'/g, "''")}'`;
