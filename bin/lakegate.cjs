#!/usr/bin/env node
// Launcher. CommonJS on purpose: it runs before any module is loaded asynchronously,
// which is what starts libuv's thread pool, so the pool's size can still be set here.
// Every DuckDB call (prepare, execute, fetch) holds one of its threads until it returns;
// with the default four, four long statements would stall every other session, logins
// included. One thread per possible session (maxConnections of `serve --config FILE`,
// else the default 200) plus a few; an operator's own UV_THREADPOOL_SIZE wins.
'use strict';
const { readFileSync } = require('node:fs');

function maxConnections(argv) {
  const at = argv.indexOf('--config');
  const file = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--config='))?.slice(9);
  if (!file) return 200;
  try {
    const n = JSON.parse(readFileSync(file, 'utf8')).maxConnections;
    return Number.isInteger(n) && n > 0 ? n : 200;
  } catch {
    return 200; // the CLI reports an unreadable configuration itself
  }
}

process.env.UV_THREADPOOL_SIZE ??= String(Math.min(1024, maxConnections(process.argv.slice(2)) + 8));
import('../dist/bin/lakegate.js');
