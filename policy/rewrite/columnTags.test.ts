import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ColumnTagFile } from './columnTags.js';

describe('ColumnTagFile', () => {
  let dir: string;
  let now = 0;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lg-tags-'));
    now = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const source = (file: string) => new ColumnTagFile(file, pino({ level: 'silent' }), 1000, () => now);

  it('answers per table resource, undefined for tables it does not list', () => {
    const f = path.join(dir, 't.json');
    fs.writeFileSync(f, JSON.stringify({ 'sales.orders': { ssn: ['PII', 'SSN'] } }));
    const s = source(f);
    expect(s.tagsFor({ database: 'sales', table: 'orders' })).toEqual({ ssn: ['PII', 'SSN'] });
    expect(s.tagsFor({ database: 'sales', table: 'people' })).toBeUndefined();
  });

  it('a missing, unparsable or ill-shaped file makes the state unknown (null) until a good file is back', () => {
    const f = path.join(dir, 't.json');
    expect(source(f).tagsFor({ database: 'sales', table: 'orders' })).toBeNull();
    fs.writeFileSync(f, JSON.stringify({ 'sales.orders': { ssn: 'PII' } }));
    const s = source(f);
    expect(s.tagsFor({ database: 'sales', table: 'orders' })).toBeNull();
    const v = s.version;
    fs.writeFileSync(f, JSON.stringify({ 'sales.orders': { ssn: ['PII'] } }) + ' ');
    expect(s.tagsFor({ database: 'sales', table: 'orders' })).toBeNull(); // not re-read before the interval
    now = 1500;
    expect(s.tagsFor({ database: 'sales', table: 'orders' })).toEqual({ ssn: ['PII'] });
    expect(s.version).toBeGreaterThan(v);
    fs.writeFileSync(f, '{ broken');
    now = 3000;
    expect(s.tagsFor({ database: 'sales', table: 'people' })).toBeNull();
  });

  it('columns named like Object.prototype members keep their own tags; no other column finds any', () => {
    const f = path.join(dir, 't.json');
    fs.writeFileSync(f, '{"sales.orders": {"__proto__": ["PII"], "constructor": ["SSN"]}}');
    const tags = source(f).tagsFor({ database: 'sales', table: 'orders' })!;
    expect(Object.entries(tags)).toEqual([['__proto__', ['PII']], ['constructor', ['SSN']]]);
    expect(Object.hasOwn(tags, 'toString')).toBe(false);
  });
});
