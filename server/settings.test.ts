import { PgError } from '../protocol/errors.js';
import { serverDefaults, SessionSettings, splitSearchPath } from './settings.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as PgError).code;
  }
  return 'no error';
};

describe('SessionSettings', () => {
  it('takes startup parameters and libpq options as defaults', () => {
    const s = new SessionSettings('alice', { application_name: 'dbt', options: '-c search_path=sales -c statement_timeout=5s' });
    expect(s.get('application_name')).toBe('dbt');
    expect(s.searchPath('alice')).toEqual(['sales']);
    expect(s.statementTimeoutMs()).toBe(5000);
    expect(s.get('session_authorization')).toBe('alice');
  });

  it('reports only changed reported parameters, by canonical name', () => {
    const s = new SessionSettings('alice', {});
    expect(s.set('timezone', 'europe/berlin')).toBe('TimeZone');
    expect(s.get('TimeZone')).toBe('Europe/Berlin');
    expect(s.set('TimeZone', 'Europe/Berlin')).toBeNull();
    expect(s.set('extra_float_digits', '3')).toBeNull();
    expect(s.reset('ALL')).toEqual(['TimeZone']);
  });

  it('keeps the output formats pgJDBC and libpq rely on', () => {
    const s = new SessionSettings('alice', {});
    expect(s.set('DateStyle', 'ISO, DMY')).toBe('DateStyle');
    expect(code(() => s.set('DateStyle', 'SQL, DMY'))).toBe('22023');
    expect(code(() => s.set('client_encoding', 'LATIN1'))).toBe('0A000');
    expect(code(() => s.set('IntervalStyle', 'iso_8601'))).toBe('22023');
    expect(code(() => s.set('standard_conforming_strings', 'off'))).toBe('22023');
  });

  it('refuses unknown parameters, bad values and read-only ones with PostgreSQL codes', () => {
    const s = new SessionSettings('alice', {});
    expect(code(() => s.get('no_such_thing'))).toBe('42704');
    expect(code(() => s.set('TimeZone', 'Mars/Olympus'))).toBe('22023');
    expect(code(() => s.set('statement_timeout', 'soon'))).toBe('22023');
    expect(code(() => s.set('extra_float_digits', '9'))).toBe('22023');
    expect(code(() => s.set('server_version', '9.6'))).toBe('55P02');
  });

  it('splits search_path like PostgreSQL', () => {
    expect(splitSearchPath('"$user", public')).toEqual(['$user', 'public']);
    expect(splitSearchPath('Sales, "Mixed Case"')).toEqual(['sales', 'Mixed Case']);
  });
});

describe('server-wide defaults (config `settings`)', () => {
  it('sit under the startup packet and SET; RESET returns to them; SHOW prints them as PostgreSQL does', () => {
    const server = serverDefaults({ statement_timeout: '5min', timezone: 'europe/berlin' });
    expect(server).toEqual({ statement_timeout: '5min', TimeZone: 'Europe/Berlin' });
    const s = new SessionSettings('alice', {}, server);
    expect(s.get('statement_timeout')).toBe('5min');
    expect(s.statementTimeoutMs()).toBe(300_000);
    expect(s.reported()).toContainEqual(['TimeZone', 'Europe/Berlin']);
    s.set('statement_timeout', '2s');
    expect(s.statementTimeoutMs()).toBe(2000);
    s.reset('statement_timeout');
    expect(s.get('statement_timeout')).toBe('5min');
    // the client's startup options win over the server's default
    const own = new SessionSettings('alice', { options: '-c statement_timeout=0' }, server);
    expect(own.statementTimeoutMs()).toBe(0);
    expect(own.reset('ALL')).toEqual([]);
    expect(own.get('statement_timeout')).toBe('0');
  });

  it('refuse an unknown setting, a fixed one, a transaction-only one and a bad value, naming it', () => {
    expect(() => serverDefaults({ statment_timeout: '5s' })).toThrow('settings.statment_timeout: unrecognized configuration parameter "statment_timeout"');
    expect(() => serverDefaults({ server_version: '17' })).toThrow('cannot be given a server-wide default');
    expect(() => serverDefaults({ transaction_isolation: 'serializable' })).toThrow('cannot be given a server-wide default');
    expect(() => serverDefaults({ statement_timeout: '5 minutes' })).toThrow('settings.statement_timeout: invalid value for parameter "statement_timeout": "5 minutes"');
  });
});
