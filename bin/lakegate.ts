#!/usr/bin/env node
/**
 * lakegate CLI: serve, demo, check-config, extensions, user, hash-password, version; each answers --help.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import pino from 'pino';
import type { Logger } from 'pino';
import { createInterface } from 'node:readline';
import { makeVerifier } from '../protocol/scram.js';
import { addUser, setPassword } from '../server/usersFileEdit.js';
import { parseConfig, type Config } from '../server/config.js';
import { describePolicySources } from '../server/policies.js';
import { leveledLogger, type LogLevel } from '../server/ops/logLevel.js';
import { defaultLogLevel, ReloadRefused } from '../server/ops/reload.js';
// The gateway, the demo and the extensions are imported where a command needs them:
// --help, version, check-config and hash-password answer without loading the engine.

const VERSION = '0.1.0';

/** Each subcommand's usage, printed by `lakegate <command> --help` and after a wrong option. */
const COMMANDS: Readonly<Record<string, string>> = {
  demo: `lakegate demo [--port 5433] [--host 127.0.0.1] [--data-dir ~/.lakegate/demo] [--ops-port 9187|off]
  Start the demo gateway: its own Iceberg warehouse, users and policies, no external service;
  metrics and health on 127.0.0.1:<ops-port> (off: none).`,
  serve: `lakegate serve --config FILE
  Start the gateway with a JSON configuration (README, Configuration).`,
  'check-config': `lakegate check-config FILE
  Validate a configuration without starting (unknown keys are errors) and print which policy
  and roles files each gate reads.`,
  extensions: `lakegate extensions [--dir DIR]
  Fetch DuckDB's iceberg, avro and httpfs extensions now (default dir ~/.lakegate/extensions).`,
  user: `lakegate user add --users-file FILE NAME      add a local user
lakegate user passwd --users-file FILE NAME   set a local user's password
  The password is read from a prompt that does not echo, or from stdin's first line.`,
  'hash-password': `lakegate hash-password
  Print a SCRAM-SHA-256 verifier for the users file. The password is read from a prompt that
  does not echo, or from stdin's first line (never from the command line, where the shell's
  history and the process list would keep it).`,
  version: `lakegate version
  Print lakegate's version.`,
};

const USAGE = `usage:\n${Object.values(COMMANDS)
  .flatMap((u) => u.split('\n').filter((l) => l.startsWith('lakegate ')))
  .map((l) => `  ${l}`)
  .join('\n')}\n  lakegate <command> --help`;

class UsageError extends Error {}

/** parseArgs with `--help` / `-h` on every command; a wrong option is a usage error naming the command's usage. */
function args<T extends ParseArgsConfig['options']>(command: string, rest: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: rest, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nusage: ${COMMANDS[command]}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && command in COMMANDS && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(`usage: ${COMMANDS[command]}`);
    return 0;
  }
  switch (command) {
    case 'demo': {
      const { values } = args('demo', rest, {
        port: { type: 'string', default: '5433' },
        host: { type: 'string', default: '127.0.0.1' },
        'data-dir': { type: 'string', default: join(homedir(), '.lakegate', 'demo') },
        'ops-port': { type: 'string', default: '9187' },
      });
      const opsPort = values['ops-port']!;
      if (opsPort !== 'off' && !/^\d{1,5}$/.test(opsPort)) throw new UsageError(`--ops-port: a port number or "off", not "${opsPort}"\nusage: ${COMMANDS['demo']}`);
      const logging = startLog(defaultLogLevel());
      const { demoConfig } = await import('../server/demo.js');
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
      const { values } = args('serve', rest, { config: { type: 'string' } });
      if (!values.config) throw new UsageError(`serve needs --config FILE\nusage: ${COMMANDS['serve']}`);
      const file = values.config;
      const config = loadConfig(file);
      await run(config, startLog(config.ops.logLevel ?? defaultLogLevel()), () => loadConfig(file), false);
      return -1;
    }
    case 'extensions': {
      const { values } = args('extensions', rest, { dir: { type: 'string' } });
      const { defaultExtensionDirectory, ensureExtensions } = await import('../server/extensions.js');
      const dir = values.dir ?? defaultExtensionDirectory();
      await ensureExtensions(dir, ['avro', 'iceberg', 'httpfs'], startLog(defaultLogLevel()).log);
      console.log(`DuckDB extensions iceberg, avro, httpfs are in ${dir}`);
      return 0;
    }
    case 'check-config': {
      const { positionals } = args('check-config', rest, {}, true);
      if (positionals.length !== 1) throw new UsageError(`check-config needs one FILE\nusage: ${COMMANDS['check-config']}`);
      const config = loadConfig(positionals[0]!);
      console.log('configuration ok');
      for (const d of describePolicySources(config)) console.log(`${d.gate}:\n  policies: ${d.policies}\n  roles: ${d.roles}`);
      return 0;
    }
    case 'user': {
      const [action, ...more] = rest;
      const { values, positionals } = args('user', more, { 'users-file': { type: 'string' } }, true);
      const file = values['users-file'];
      const name = positionals[0];
      if ((action !== 'add' && action !== 'passwd') || !file || !name || positionals.length > 1) throw new UsageError(`usage: ${COMMANDS['user']}`);
      const password = await readPassword(`password for ${name}: `);
      if (action === 'add') addUser(file, name, password);
      else setPassword(file, name, password);
      console.log(action === 'add' ? `user "${name}" added to ${file}` : `password of "${name}" changed in ${file}`);
      return 0;
    }
    case 'hash-password': {
      const { positionals } = args('hash-password', rest, {}, true);
      if (positionals.length > 0) {
        throw new UsageError(
          `hash-password does not take the password on the command line (the shell's history and the process list would keep it): type it at the prompt or pipe it to stdin\nusage: ${COMMANDS['hash-password']}`,
        );
      }
      const password = await readPassword('password: ');
      if (password === '') throw new Error('empty password');
      console.log(makeVerifier(password));
      return 0;
    }
    case 'version':
    case '--version':
      console.log(`lakegate ${VERSION}`);
      return 0;
    default:
      if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
        console.log(USAGE);
        return 0;
      }
      console.error(`lakegate: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/**
 * From a pipe: the first line. At a terminal: a prompt that does not echo, written to
 * stderr so that stdout holds only the result (`lakegate hash-password > verifier`).
 */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stderr.write(prompt);
  out._writeToOutput = () => undefined;
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
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
  const [{ startGateway }, { createPlanner }, { DEMO_BANNER, DEMO_DATABASE, DEMO_USERS }] = await Promise.all([
    import('../server/gateway.js'),
    import('../server/planner.js'),
    import('../server/demo.js'),
  ]);
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
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
