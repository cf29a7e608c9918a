import { parseSync } from 'libpg-query';
import { loadModule } from 'libpg-query'; await loadModule();
console.log(JSON.stringify(parseSync("SELECT * FROM iceberg_scan('x', snapshot_from_id => 5739012938475620123) t").stmts[0].stmt.SelectStmt.fromClause[0]));
console.log(JSON.stringify(parseSync(`SELECT * FROM sales."orders@123"`).stmts[0].stmt.SelectStmt.fromClause[0]));
