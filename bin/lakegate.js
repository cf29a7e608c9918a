#!/usr/bin/env node
// Launcher: the CLI is compiled by `npm ci` (prepare → tsc) into dist/.
import '../dist/bin/lakegate.js';
