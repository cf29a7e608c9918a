#!/usr/bin/env node
// Launcher of the package's `lakegate` command. Nothing here sizes anything: DuckDB runs in
// engine processes the gateway starts itself (server/engine/), each with libuv's thread pool
// sized for the sessions it may serve, whichever way the gateway was started.
'use strict';
import('../dist/bin/lakegate.js');
