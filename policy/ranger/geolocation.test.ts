import { GeolocationTable, ipv4ToNumber } from './geolocation.js';

const CSV = `# comment
FROM_IP,TO_IP,COUNTRY_CODE,COUNTRY_NAME,STATE
10.0.0.255,10.0.3.0,US,United States,CA
20.0.100.80,20.0.100.89,CA,Canada
`;

test('dotted ranges: the row holding the address gives LOCATION_<prefix><column>', () => {
  const t = new GeolocationTable(CSV, { ipInDotFormat: true, prefix: 'TEST_' });
  expect(t.attributesFor('10.0.1.7')).toEqual({
    LOCATION_TEST_FROM_IP: '10.0.0.255',
    LOCATION_TEST_TO_IP: '10.0.3.0',
    LOCATION_TEST_COUNTRY_CODE: 'US',
    LOCATION_TEST_COUNTRY_NAME: 'United States',
    LOCATION_TEST_STATE: 'CA',
  });
  expect(t.attributesFor('20.0.100.89').LOCATION_TEST_COUNTRY_CODE).toBe('CA');
  expect(t.attributesFor('20.0.100.90')).toEqual({});
  expect(t.attributesFor(undefined)).toEqual({});
  expect(t.attributesFor('not-an-ip')).toEqual({});
});

test('integer ranges (IPInDotFormat=false) look up the same dotted client address', () => {
  // 10.0.0.255 = 167772415, 10.0.3.0 = 167773 440 - 512 = 167772928
  const t = new GeolocationTable('FROM_IP,TO_IP,COUNTRY_CODE\n167772415,167772928,US\n', { ipInDotFormat: false, prefix: '' });
  expect(ipv4ToNumber('10.0.0.255')).toBe(10 * 2 ** 24 + 255);
  expect(t.attributesFor('10.0.2.1')).toMatchObject({ LOCATION_COUNTRY_CODE: 'US' });
  expect(t.attributesFor('10.0.3.1')).toEqual({});
});
