#!/usr/bin/env node
// Launcher: the CLI is compiled by `npm ci` (prepare → tsc) into dist/.
// package.json's bin is lakegate.cjs, which also sizes libuv's thread pool (see there).
import '../dist/bin/lakegate.js';
