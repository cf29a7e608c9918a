/**
 * Session settings as a PostgreSQL client sees them: SET / SHOW / RESET of
 * the parameters psql, pgJDBC, psycopg2 and dbt send. They live in the
 * gateway; none of them reaches the engine, whose configuration is locked.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import { isKnownZone } from '../protocol/types/timezone.js';
import { canonicalZoneName } from '../protocol/types/tzif.js';

export const SERVER_VERSION = '16.4 (lakegate)';
export const SERVER_VERSION_NUM = '160004';

interface SettingDef {
  /** Canonical name, as SHOW and ParameterStatus spell it. */
  name: string;
  initial: string;
  /** Sent as ParameterStatus after login and whenever it changes. */
  reported?: boolean;
  /** Normalise or refuse a new value. */
  check?: (value: string) => string;
  /** Fixed by the server: SET to another value is refused. */
  readOnly?: boolean;
  description: string;
}

const invalid = (name: string, value: string, hint?: string) =>
  new PgError(SqlState.invalidParameterValue, `invalid value for parameter "${name}": "${value}"`, { hint });

/**
 * Accept exactly the zones the encoder can print timestamptz in (the system
 * tzdata, as PostgreSQL uses it, POSIX strings, ICU as fallback), spelled as
 * the zone file is.
 */
function checkTimeZone(value: string): string {
  const v = value.trim();
  const zone = canonicalZoneName(v) ?? v;
  if (!isKnownZone(zone)) throw invalid('TimeZone', value);
  return zone;
}

function checkDateStyle(value: string): string {
  const parts = value.split(',').map((p) => p.trim().toUpperCase()).filter(Boolean);
  const order = parts.find((p) => ['MDY', 'DMY', 'YMD', 'US', 'EURO', 'EUROPEAN', 'NONEURO', 'NONEUROPEAN', 'GERMAN'].includes(p));
  const style = parts.find((p) => ['ISO', 'SQL', 'POSTGRES', 'GERMAN'].includes(p)) ?? 'ISO';
  if (style !== 'ISO' || parts.some((p) => !['ISO', 'MDY', 'DMY', 'YMD'].includes(p))) {
    // pgJDBC and libpq parse dates in ISO only; another output style would corrupt their values.
    throw new PgError(SqlState.invalidParameterValue, `invalid value for parameter "DateStyle": "${value}"`, {
      detail: 'lakegate writes dates in ISO style only.',
    });
  }
  return `ISO, ${order ?? 'MDY'}`;
}

function checkInteger(name: string, min: number, max: number) {
  return (value: string): string => {
    if (!/^[-+]?\d+$/.test(value.trim())) {
      throw new PgError(SqlState.invalidParameterValue, `invalid value for parameter "${name}": "${value}"`);
    }
    const n = Number(value);
    if (n < min || n > max) {
      throw new PgError(
        SqlState.invalidParameterValue,
        `${n} is outside the valid range for parameter "${name}" (${min} .. ${max})`,
      );
    }
    return String(n);
  };
}

const DURATION_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, min: 60000, h: 3600000, d: 86400000 };

/** statement_timeout: an integer in ms or a number with a unit, as PostgreSQL accepts it. */
export function parseDurationMs(name: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(value);
  if (!m) throw invalid(name, value, 'Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".');
  const ms = Math.round(Number(m[1]) * DURATION_UNITS[m[2] ?? 'ms']!);
  if (ms > 2147483647) throw invalid(name, value);
  return ms;
}

/** A duration as SHOW prints it: in the largest unit that divides it (PostgreSQL's GUC_UNIT_MS display). */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0';
  for (const [unit, size] of [['d', 86400000], ['h', 3600000], ['min', 60000], ['s', 1000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const durationSetting = (name: string) => (v: string) => formatDurationMs(parseDurationMs(name, v));

function checkOneOf(name: string, allowed: string[], detail?: string) {
  return (value: string): string => {
    const v = value.trim().toLowerCase();
    const hit = allowed.find((a) => a.toLowerCase() === v);
    if (!hit) throw new PgError(SqlState.invalidParameterValue, `invalid value for parameter "${name}": "${value}"`, { detail });
    return hit;
  };
}

const bool = (name: string) => (value: string): string => {
  const v = value.trim().toLowerCase();
  if (['on', 'true', 'yes', '1', 't', 'y'].includes(v)) return 'on';
  if (['off', 'false', 'no', '0', 'f', 'n'].includes(v)) return 'off';
  throw new PgError(SqlState.invalidParameterValue, `parameter "${name}" requires a Boolean value`);
};

function checkEncoding(value: string): string {
  if (/^(utf-?8|unicode)$/i.test(value.trim())) return 'UTF8';
  throw new PgError(SqlState.featureNotSupported, `conversion between ${value} and UTF8 is not supported`, {
    detail: 'lakegate speaks UTF8 only.',
  });
}


const ISOLATION = ['read uncommitted', 'read committed', 'repeatable read', 'serializable'];

const DEFS: SettingDef[] = [
  { name: 'application_name', initial: '', reported: true, description: 'Sets the application name to be reported in statistics and logs.' },
  { name: 'client_encoding', initial: 'UTF8', reported: true, check: checkEncoding, description: "Sets the client's character set encoding." },
  { name: 'DateStyle', initial: 'ISO, MDY', reported: true, check: checkDateStyle, description: 'Sets the display format for date and time values.' },
  { name: 'default_transaction_read_only', initial: 'on', reported: true, check: bool('default_transaction_read_only'), description: 'Sets the default read-only status of new transactions.' },
  { name: 'in_hot_standby', initial: 'off', reported: true, readOnly: true, description: 'Shows whether hot standby is currently active.' },
  { name: 'integer_datetimes', initial: 'on', reported: true, readOnly: true, description: 'Shows whether datetimes are integer based.' },
  { name: 'IntervalStyle', initial: 'postgres', reported: true, check: checkOneOf('IntervalStyle', ['postgres'], 'lakegate writes intervals in postgres style only.'), description: 'Sets the display format for interval values.' },
  { name: 'is_superuser', initial: 'off', reported: true, readOnly: true, description: 'Shows whether the current user is a superuser.' },
  { name: 'server_encoding', initial: 'UTF8', reported: true, readOnly: true, description: 'Shows the server (database) character set encoding.' },
  { name: 'server_version', initial: SERVER_VERSION, reported: true, readOnly: true, description: 'Shows the server version.' },
  { name: 'server_version_num', initial: SERVER_VERSION_NUM, readOnly: true, description: 'Shows the server version as an integer.' },
  { name: 'session_authorization', initial: '', reported: true, readOnly: true, description: 'Sets the session user name.' },
  { name: 'standard_conforming_strings', initial: 'on', reported: true, check: checkOneOf('standard_conforming_strings', ['on']), description: "Causes '...' strings to treat backslashes literally." },
  { name: 'TimeZone', initial: 'UTC', reported: true, check: checkTimeZone, description: 'Sets the time zone for displaying and interpreting time stamps.' },
  { name: 'search_path', initial: '"$user", public', description: 'Sets the schema search order for names that are not schema-qualified.' },
  { name: 'extra_float_digits', initial: '1', check: checkInteger('extra_float_digits', -15, 3), description: 'Sets the number of digits displayed for floating-point values.' },
  { name: 'statement_timeout', initial: '0', check: durationSetting('statement_timeout'), description: 'Sets the maximum allowed duration of any statement.' },
  { name: 'lock_timeout', initial: '0', check: durationSetting('lock_timeout'), description: 'Sets the maximum allowed duration of any wait for a lock.' },
  { name: 'idle_in_transaction_session_timeout', initial: '0', check: durationSetting('idle_in_transaction_session_timeout'), description: 'Sets the maximum allowed idle time between queries, when in a transaction.' },
  { name: 'default_transaction_isolation', initial: 'read committed', check: checkOneOf('default_transaction_isolation', ISOLATION), description: 'Sets the transaction isolation level of each new transaction.' },
  { name: 'transaction_isolation', initial: 'read committed', check: checkOneOf('transaction_isolation', ISOLATION), description: "Sets the current transaction's isolation level." },
  { name: 'transaction_read_only', initial: 'on', check: bool('transaction_read_only'), description: "Sets the current transaction's read-only status." },
  { name: 'bytea_output', initial: 'hex', check: checkOneOf('bytea_output', ['hex']), description: 'Sets the output format for bytea.' },
  { name: 'client_min_messages', initial: 'notice', check: checkOneOf('client_min_messages', ['debug5', 'debug4', 'debug3', 'debug2', 'debug1', 'log', 'notice', 'warning', 'error']), description: 'Sets the message levels that are sent to the client.' },
  { name: 'lc_messages', initial: 'C', description: 'Sets the language in which messages are displayed.' },
  { name: 'lc_monetary', initial: 'C', description: 'Sets the locale for formatting monetary amounts.' },
  { name: 'lc_numeric', initial: 'C', description: 'Sets the locale for formatting numbers.' },
  { name: 'lc_time', initial: 'C', description: 'Sets the locale for formatting date and time values.' },
  { name: 'row_security', initial: 'on', check: checkOneOf('row_security', ['on']), description: 'Enable row security.' },
  { name: 'jit', initial: 'off', check: bool('jit'), description: 'Allow JIT compilation.' },
  { name: 'work_mem', initial: '4MB', description: 'Sets the maximum memory to be used for query workspaces.' },
  { name: 'synchronous_commit', initial: 'on', description: "Sets the current transaction's synchronization level." },
  { name: 'max_identifier_length', initial: '63', readOnly: true, description: 'Shows the maximum identifier length.' },
  { name: 'max_index_keys', initial: '32', readOnly: true, description: 'Shows the maximum number of index keys.' },
  // SQLAlchemy reads it when reflecting a table (PostgreSQL 12+)
  { name: 'default_table_access_method', initial: 'heap', description: 'Sets the default table access method for new tables.' },
];

const BY_NAME = new Map(DEFS.map((d) => [d.name.toLowerCase(), d]));
/** PostgreSQL's aliases: SET TIME ZONE, SET NAMES, SET SESSION AUTHORIZATION. */
const ALIASES: Record<string, string> = { timezone: 'TimeZone', names: 'client_encoding' };

export function settingDef(name: string): SettingDef {
  const key = (ALIASES[name.toLowerCase()] ?? name).toLowerCase();
  const def = BY_NAME.get(key);
  if (!def) throw new PgError(SqlState.undefinedObject, `unrecognized configuration parameter "${name}"`);
  return def;
}

/** Settings that exist only for the current transaction: outside a block they show their session default. */
const TRANSACTION_SCOPED: Record<string, string> = {
  transaction_isolation: 'default_transaction_isolation',
  transaction_read_only: 'default_transaction_read_only',
};

/** Settings a server-wide default cannot be given for: the client's own, and those of one transaction. */
const NOT_SERVER_DEFAULTS = new Set(['client_encoding', 'transaction_isolation', 'transaction_read_only']);

/**
 * The configuration's server-wide defaults (`settings`, as postgresql.conf sets
 * them), checked and normalised as SET would; throws an Error naming the
 * setting when one is unknown, fixed, or its value is refused.
 */
export function serverDefaults(settings: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings)) {
    let def: SettingDef;
    try {
      def = settingDef(name);
    } catch (e) {
      throw new Error(`settings.${name}: ${(e as Error).message}`);
    }
    if (def.readOnly || NOT_SERVER_DEFAULTS.has(def.name)) throw new Error(`settings.${name}: parameter "${def.name}" cannot be given a server-wide default`);
    try {
      out[def.name] = def.check ? def.check(value) : value;
    } catch (e) {
      throw new Error(`settings.${name}: ${(e as Error).message}`);
    }
  }
  return out;
}

export class SessionSettings {
  private readonly values = new Map<string, string>();
  private readonly defaults = new Map<string, string>();
  /** SET LOCAL, SET TRANSACTION and BEGIN's options: dropped when the block ends. */
  private readonly local = new Map<string, string>();

  /** `server`: the server-wide defaults (serverDefaults()), under what the client's startup packet sets. */
  constructor(user: string, startup: Record<string, string>, server: Readonly<Record<string, string>> = {}) {
    for (const def of DEFS) this.defaults.set(def.name, def.initial);
    for (const [name, value] of Object.entries(server)) this.defaults.set(settingDef(name).name, value);
    this.defaults.set('session_authorization', user);
    // Startup parameters (and `options=-c name=value`) become the session's defaults, as in PostgreSQL.
    for (const [name, value] of Object.entries(startupSettings(startup))) {
      const def = settingDef(name);
      if (def.readOnly) continue;
      // libpq derives client_encoding from the locale (SQL_ASCII under LANG=C);
      // the server's answer, UTF8, is what the client then uses.
      if (def.name === 'client_encoding') continue;
      this.defaults.set(def.name, def.check ? def.check(value) : value);
    }
  }

  get(name: string): string {
    const def = settingDef(name);
    const local = this.local.get(def.name);
    if (local !== undefined) return local;
    const scoped = TRANSACTION_SCOPED[def.name];
    if (scoped) return this.get(scoped);
    return this.values.get(def.name) ?? this.defaults.get(def.name)!;
  }

  /**
   * Returns the canonical name when the change must be reported with
   * ParameterStatus. `local`: for the current transaction only (SET LOCAL,
   * set_config(…, true)); the caller passes it only inside a block.
   */
  set(name: string, value: string, local = false): string | null {
    const def = settingDef(name);
    if (def.readOnly) {
      if (value === this.get(def.name)) return null;
      throw new PgError(SqlState.cantChangeRuntimeParam, `parameter "${def.name}" cannot be changed`);
    }
    const normal = def.check ? def.check(value) : value;
    const before = this.get(def.name);
    if (local || TRANSACTION_SCOPED[def.name]) this.local.set(def.name, normal);
    else {
      this.values.set(def.name, normal);
      // A session-level SET inside a block replaces an earlier SET LOCAL of the same setting.
      this.local.delete(def.name);
    }
    return def.reported && before !== normal ? def.name : null;
  }

  /** The block ended: transaction-local values go; returns the reported names whose value changed. */
  endTransaction(): string[] {
    const changed: string[] = [];
    const names = [...this.local.keys()];
    const before = names.map((n) => this.get(n));
    this.local.clear();
    names.forEach((n, i) => {
      if (settingDef(n).reported && before[i] !== this.get(n)) changed.push(n);
    });
    return changed;
  }

  /** Returns the names whose reported value changed. */
  reset(name: string | 'ALL'): string[] {
    const defs = name === 'ALL' ? DEFS.filter((d) => !d.readOnly) : [settingDef(name)];
    const changed: string[] = [];
    for (const def of defs) {
      const before = this.get(def.name);
      this.values.delete(def.name);
      this.local.delete(def.name);
      if (def.reported && before !== this.get(def.name)) changed.push(def.name);
    }
    return changed;
  }

  reported(): [string, string][] {
    return DEFS.filter((d) => d.reported).map((d) => [d.name, this.get(d.name)]);
  }

  all(): { name: string; setting: string; description: string }[] {
    return DEFS.map((d) => ({ name: d.name, setting: this.get(d.name), description: d.description }));
  }

  /** The schemas of search_path, with "$user" expanded. */
  searchPath(user: string): string[] {
    return splitSearchPath(this.get('search_path')).map((s) => (s === '$user' ? user : s));
  }

  statementTimeoutMs(): number {
    return parseDurationMs('statement_timeout', this.get('statement_timeout'));
  }
}

/** Split a search_path value: comma separated, double quotes keep case and commas. */
export function splitSearchPath(value: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^,\s]+))\s*(?:,|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < value.length && (m = re.exec(value))) {
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.toLowerCase());
  }
  return out;
}

/** Startup parameters that are settings, including libpq's `options=-c name=value`. */
function startupSettings(startup: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(startup)) {
    if (k === 'options') Object.assign(out, parseOptions(v));
    else if (k !== 'replication') out[k] = v;
  }
  return out;
}

function parseOptions(options: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Arguments are space separated; a backslash escapes the next character.
  const args: string[] = [];
  let cur = '';
  for (let i = 0; i < options.length; i++) {
    const c = options[i]!;
    if (c === '\\' && i + 1 < options.length) cur += options[++i];
    else if (c === ' ') {
      if (cur) args.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) args.push(cur);
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    if (a === '-c' && i + 1 < args.length) a = args[++i]!;
    else if (a.startsWith('-c')) a = a.slice(2);
    else if (a.startsWith('--')) a = a.slice(2);
    else {
      throw new PgError(SqlState.featureNotSupported, `invalid command-line argument for server process: ${a}`);
    }
    const eq = a.indexOf('=');
    if (eq < 0) throw new PgError(SqlState.syntaxError, `-c ${a} requires a value`);
    out[a.slice(0, eq).replace(/-/g, '_')] = a.slice(eq + 1);
  }
  return out;
}
