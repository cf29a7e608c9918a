import { jsonString } from '../../sql/jsonbText.js';
import { jsonQuoteInPlace } from './json.js';

describe('JSON string escaping', () => {
  const samples = ['', 'plain', 'quote " and \\ backslash', '\b\f\n\r\t', '\u0000\u0001\u001f\u007f', 'é ✓ 日本 🦆', '</script>'];
  for (let c = 0; c < 128; c++) samples.push(`a${String.fromCharCode(c)}b`);

  it('jsonString is what JSON.stringify produces', () => {
    for (const s of samples) expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it('jsonQuoteInPlace on UTF-8 bytes is what JSON.stringify produces', () => {
    for (const s of samples) {
      const src = Buffer.from(s, 'utf8');
      const buf = Buffer.alloc(2 + src.length * 6 + 4);
      src.copy(buf, 2);
      const end = jsonQuoteInPlace(buf, 2, 2 + src.length);
      expect(buf.toString('utf8', 2, end)).toBe(JSON.stringify(s));
    }
  });
});
