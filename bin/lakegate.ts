#!/usr/bin/env node
/**
 * lakegate CLI: serve, demo, check-config, user, hash-password, version.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { Logger } from 'pino';
import { createInterface } from 'node:readline';
import { makeVerifier } from '../protocol/scram.js';
import { addUser, setPassword } from '../server/usersFileEdit.js';
import { parseConfig, type Config } from '../server/config.js';
import { demoConfig, DEMO_BANNER, DEMO_DATABASE, DEMO_USERS } from '../server/demo.js';
import { createPlanner } from '../server/planner.js';
import { startGateway } from '../server/gateway.js';
import { leveledLogger, type LogLevel } from '../server/ops/logLevel.js';
import { defaultLogLevel, ReloadRefused } from '../server/ops/reload.js';
import { defaultExtensionDirectory, ensureExtensions } from '../server/extensions.js';

const VERSION = '0.1.0';

const USAGE = `usage:
  lakegate demo [--port 5433] [--host 127.0.0.1] [--data-dir ~/.lakegate/demo] [--ops-port 9187|off]
  lakegate serve --config FILE
  lakegate check-config FILE
  lakegate extensions [--dir DIR]      fetch DuckDB's iceberg, avro and httpfs extensions now (default dir ~/.lakegate/extensions)
  lakegate user add --users-file FILE NAME      add a local user (password read from stdin or a prompt)
  lakegate user passwd --users-file FILE NAME   set a local user's password
  lakegate hash-password PASSWORD     print a SCRAM-SHA-256 verifier for the users file
  lakegate version`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'demo': {
      const { values } = parseArgs({
        args: rest,
        options: {
          port: { type: 'string', default: '5433' },
          host: { type: 'string', default: '127.0.0.1' },
          'data-dir': { type: 'string', default: join(homedir(), '.lakegate', 'demo') },
          'ops-port': { type: 'string', default: '9187' },
        },
      });
      const logging = startLog(defaultLogLevel());
      const opsPort = values['ops-port']!;
      if (opsPort !== 'off' && !/^\d{1,5}$/.test(opsPort)) throw new Error(`--ops-port: a port number or "off", not "${opsPort}"`);
      const config = await demoConfig({
        host: values.host!,
        port: Number(values.port),
        dataDir: values['data-dir']!,
        ...(opsPort === 'off' ? {} : { opsListen: `127.0.0.1:${opsPort}` }),
        log: logging.log,
      });
      // The demo's configuration is made, not read: a reload re-reads its policies and keeps the rest.
      await run(config, logging, () => config, true);
      return -1;
    }
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { config: { type: 'string' } } });
      if (!values.config) throw new Error('serve needs --config FILE');
      const file = values.config;
      const config = loadConfig(file);
      await run(config, startLog(config.ops.logLevel ?? defaultLogLevel()), () => loadConfig(file), false);
      return -1;
    }
    case 'extensions': {
      const { values } = parseArgs({ args: rest, options: { dir: { type: 'string' } } });
      const dir = values.dir ?? defaultExtensionDirectory();
      await ensureExtensions(dir, ['avro', 'iceberg', 'httpfs'], startLog(defaultLogLevel()).log);
      console.log(`DuckDB extensions iceberg, avro, httpfs are in ${dir}`);
      return 0;
    }
    case 'check-config': {
      if (!rest[0]) throw new Error('check-config needs a FILE');
      loadConfig(rest[0]);
      console.log('configuration ok');
      return 0;
    }
    case 'user': {
      const [action, ...args] = rest;
      const { values, positionals } = parseArgs({ args, options: { 'users-file': { type: 'string' } }, allowPositionals: true });
      const file = values['users-file'];
      const name = positionals[0];
      if ((action !== 'add' && action !== 'passwd') || !file || !name) throw new Error('usage: lakegate user add|passwd --users-file FILE NAME');
      const password = await readPassword(`password for ${name}: `);
      if (action === 'add') addUser(file, name, password);
      else setPassword(file, name, password);
      console.log(action === 'add' ? `user "${name}" added to ${file}` : `password of "${name}" changed in ${file}`);
      return 0;
    }
    case 'hash-password': {
      if (!rest[0]) throw new Error('hash-password needs a PASSWORD');
      console.log(makeVerifier(rest[0]));
      return 0;
    }
    case 'version':
    case '--version':
      console.log(`lakegate ${VERSION}`);
      return 0;
    default:
      console.error(USAGE);
      return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
}

/** From a pipe: the first line. At a terminal: a prompt that does not echo. */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stdout.write(prompt);
  out._writeToOutput = () => undefined;
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stdout.write('\n');
  return answer;
}

function loadConfig(file: string): Config {
  return parseConfig(JSON.parse(readFileSync(file, 'utf8')));
}

function startLog(level: LogLevel): { log: Logger; setLevel(level: LogLevel): void } {
  return leveledLogger(level, pino.destination(2));
}

/**
 * Serve until SIGINT / SIGTERM. SIGHUP reloads: `reread` gives the configuration anew (a file that
 * does not parse is refused with the one in force kept), and the gateway applies what can change live.
 */
async function run(config: Config, logging: { log: Logger; setLevel(level: LogLevel): void }, reread: () => Config, demo: boolean): Promise<void> {
  const { log } = logging;
  // Node's default for SIGHUP ends the process: until the gateway can reload, a SIGHUP is only logged.
  const early = () => log.warn({ event: 'reload', outcome: 'refused', reason: 'starting' }, 'SIGHUP while starting: nothing reloaded; send it again once lakegate is listening');
  process.on('SIGHUP', early);
  const server = await startGateway(config, log, createPlanner, { setLogLevel: (l) => logging.setLevel(l), opsOptional: demo });
  if (demo) {
    console.log(`lakegate demo: database "${DEMO_DATABASE}", users ${DEMO_USERS.join(', ')} (password = user name)`);
    for (const line of DEMO_BANNER) console.log(`  ${line}`);
    console.log(`  psql "host=${server.host} port=${server.port} dbname=${DEMO_DATABASE} user=alice"`);
    if (server.ops) console.log(`  metrics: http://${server.ops.host}:${server.ops.port}/metrics  health: /healthz  readiness: /readyz`);
  }
  if (server.ops) console.log(`lakegate admin listener on ${server.ops.host}:${server.ops.port}`);
  console.log(`lakegate listening on ${server.host}:${server.port}`);
  let reloading = Promise.resolve();
  const reload = async () => {
    log.info({ event: 'reload', signal: 'SIGHUP' }, 'SIGHUP: reloading the configuration');
    try {
      const r = await server.reload(reread);
      log.info(
        { event: 'reload', outcome: 'ok', applied: r.applied, needRestart: r.needRestart, policies: r.policyState },
        `reloaded: policies re-read (${r.policyState})` +
          (r.applied.length > 0 ? `, applied ${r.applied.join(', ')}` : ', nothing else changed') +
          (r.needRestart.length > 0 ? `; changed but kept until a restart: ${r.needRestart.join(', ')}` : ''),
      );
    } catch (e) {
      const reason = (e as Error).message;
      log.error({ event: 'reload', outcome: 'refused', reason }, `reload refused, the configuration in force is kept: ${reason}`);
      if (!(e instanceof ReloadRefused)) log.error({ err: e }, 'reload failed');
    }
  };
  // One reload at a time; a SIGHUP during one runs after it.
  process.off('SIGHUP', early);
  process.on('SIGHUP', () => {
    reloading = reloading.then(reload);
  });
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal while shutting down: leave at once.
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ event: 'shutdown', signal }, 'shutting down: no new connections, running statements stopped, sessions ended with 57P01');
    // Bounded even if the engine does not let go: the configured grace, then a little for closing.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000).unref();
    server.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(`lakegate: ${(e as Error).message}`);
    process.exit(1);
  },
);
