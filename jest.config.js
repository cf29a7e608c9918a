/** Unit tests live next to the code they prove; integration suites under tests/. */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }] },
  testMatch: ['<rootDir>/{bin,server,protocol,sql,catalog,pgcatalog,policy,tests}/**/*.test.ts'],
  testTimeout: 60000,
};
