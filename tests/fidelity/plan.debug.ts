import { loadParser, parseStatements } from '../../sql/parse.js';
import { planQuery, type QueryContext } from '../../sql/query.js';
import type { RelationCatalog } from '../../sql/catalogView.js';
const catalog = { listSchemas: () => ['sales'], lookup: () => undefined, listRelations: () => [] } as unknown as RelationCatalog;
await loadParser();
const ctx: QueryContext = { database: 'demo', searchPath: ['public'], user: 'u', settings: (n) => (n === 'timezone' ? 'UTC' : undefined), backendPid: 1, catalog };
for (const q of process.argv.slice(2)) {
  try { console.log(planQuery(parseStatements(q)[0]!, ctx).sql); } catch (e) { console.log('ERR', (e as Error).message, JSON.stringify((e as { internal?: string }).internal ?? (e as {detail?: unknown}).detail)); }
}
