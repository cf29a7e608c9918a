import { loadModule, parseSync, scanSync } from 'libpg-query';
await loadModule();
for (const n of [100, 250, 500, 900]) {
  const sql = 'select ' + Array(n).fill('1').join('+');
  let best = Infinity;
  for (let k = 0; k < 5; k++) { const t = performance.now(); try { parseSync(sql); } catch {} best = Math.min(best, performance.now() - t); }
  console.log('plus', n, sql.length, 'bytes', best.toFixed(1), 'ms');
}
for (const n of [100, 300]) {
  const sql = 'select ' + '('.repeat(n) + '1' + ')'.repeat(n);
  let best = Infinity;
  for (let k = 0; k < 5; k++) { const t = performance.now(); parseSync(sql); best = Math.min(best, performance.now() - t); }
  console.log('paren', n, best.toFixed(1));
}
for (const n of [1000, 3000]) {
  const sql = `select 1 where 1 in (${Array.from({ length: n }, (_, i) => i).join(',')})`;
  let best = Infinity;
  for (let k = 0; k < 5; k++) { const t = performance.now(); parseSync(sql); best = Math.min(best, performance.now() - t); }
  console.log('in', n, sql.length, best.toFixed(1));
}
