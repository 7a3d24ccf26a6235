// Two projects: `unit` (no servers) and `integration` (real PostgreSQL and NATS started once per run by
// infra/test/global-setup.mjs). Sources are transformed by swc with decorator metadata, as in the build.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2023',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
    module: { type: 'es6' },
    swcrc: false,
  },
];

const shared = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@portico/platform$': '<rootDir>/services/platform/src/index.ts',
    '^@portico/platform/testing$': '<rootDir>/services/platform/src/testing/index.ts',
    '^@portico/platform/telemetry$': '<rootDir>/services/platform/src/telemetry/register.ts',
    '^@portico/platform/schema$': '<rootDir>/services/platform/src/bus/outbox.schema.ts',
    '^@portico/proto$': '<rootDir>/proto/src/index.ts',
    '^@portico/(identity|notifications|documents)/testing$': '<rootDir>/services/$1/src/testing/index.ts',
    '^@portico/gateway/testing$': '<rootDir>/gateway/src/testing/start-gateway.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/frontends/'],
};

export default {
  // A global option in jest (projects cannot set it): integration hooks start real servers.
  testTimeout: 60_000,
  reporters: [['default', { summaryThreshold: 0 }], '<rootDir>/infra/test/count-reporter.cjs'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/__tests__/**/*.test.ts'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/__tests__/**/*.int.test.ts'],
      globalSetup: '<rootDir>/infra/test/global-setup.mjs',
      globalTeardown: '<rootDir>/infra/test/global-teardown.mjs',
    },
    {
      // Front ends (frontends/*): components and hooks in jsdom, TSX through swc with React's automatic runtime.
      displayName: 'frontend',
      rootDir: '.',
      testEnvironment: '<rootDir>/frontends/kit/jest/environment.cjs',
      testMatch: ['<rootDir>/frontends/**/__tests__/**/*.test.{ts,tsx}'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      extensionsToTreatAsEsm: ['.ts', '.tsx'],
      transform: {
        '^.+\\.tsx?$': [
          '@swc/jest',
          {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              target: 'es2022',
              transform: { react: { runtime: 'automatic' } },
            },
            module: { type: 'es6' },
            swcrc: false,
          },
        ],
      },
      moduleNameMapper: {
        '\\.css$': '<rootDir>/frontends/kit/jest/style-stub.cjs',
        '^@portico/kit$': '<rootDir>/frontends/kit/src/index.ts',
        '^@portico/kit/testing$': '<rootDir>/frontends/kit/testing/render-area.tsx',
        '^(\\.{1,2}/.*)\\.js$': '$1',
      },
      setupFilesAfterEnv: ['<rootDir>/frontends/kit/jest/setup.ts'],
    },
    {
      // Browser journeys (frontends/e2e): Debian's chromium via playwright-core against the production
      // builds, with the real services started by the test itself. Build first; run in band.
      ...shared,
      displayName: 'browser',
      testMatch: ['<rootDir>/frontends/e2e/**/*.browser.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      testEnvironment: 'node',
      // Timeouts: the test file sets its own (jest reads testTimeout only globally).
    },
  ],
};
