import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync } from 'node:fs';
import avro from 'avsc';
const d = '/tmp/wh/sales.db/orders/metadata/';
const i = await DuckDBInstance.create(':memory:', {extension_directory:'/tmp/extdir', autoinstall_known_extensions:'false', autoload_known_extensions:'false'});
const c = await i.connect();
await c.run('LOAD avro');
for (const f of readdirSync(d).filter(f => f.endsWith('.avro'))) {
  const h = avro.extractFileHeader(d + f);
  console.log(f, JSON.stringify(h.meta['avro.schema']).slice(0, 1500));
  try { const r = await c.runAndReadAll(`SELECT * FROM read_avro('${d + f}')`); console.log(r.getRows()); } catch (e) { console.log('ERR', e.message.slice(0,200)); }
}
await c.run('LOAD iceberg');
const meta = readdirSync(d).find(f => f.endsWith('.json'));
try { console.log((await c.runAndReadAll(`SELECT * FROM iceberg_metadata('${d+meta}')`)).getRows()); } catch (e) { console.log('META ERR', e.message.slice(0,150)); }
try { console.log((await c.runAndReadAll(`SELECT * FROM iceberg_snapshots('${d+meta}')`)).getRows()); } catch (e) { console.log('SNAP ERR', e.message.slice(0,150)); }
