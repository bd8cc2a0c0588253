/** SWC compiles TypeScript (with decorator metadata) to ES modules; Jest runs them natively. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  sourceMaps: 'inline',
};

/**
 * Node 20's require(esm) is not available inside Jest's module registry (Jest needs Node 24.9+
 * for it), so the few ESM-only packages that CommonJS dependencies require are compiled to
 * CommonJS when required. SWC picks ES modules or CommonJS per load, as Jest asks.
 */
const ESM_REQUIRED_FROM_CJS = ['content-disposition'];
/**
 * `npx jest` runs without `--experimental-vm-modules`, so Jest loads the specs as CommonJS; Nest's
 * ESM-only packages (and p-limit, with its yocto-queue) are then compiled to CommonJS too. Only the
 * unit project does this: the integration project always runs as ES modules (`npm test`,
 * `npm run jest`).
 */
const ESM_ONLY_FOR_UNIT_SPECS = [...ESM_REQUIRED_FROM_CJS, '@nestjs', 'p-limit', 'yocto-queue'];

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    '^.+/node_modules/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  },
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

/**
 * Two tiers. `unit`: pure specs and specs with in-memory fakes, beside their code; no build, no
 * database, no Redis, no global setup (`npm run test:unit`, or `npx jest --selectProjects unit
 * <path>` for one file). `integration`: the real Postgres, Redis and processes, in a database
 * created for the run (`*.int-spec.ts` beside their code under libs/, and test/e2e, test/browser);
 * its global setup needs a prior build (`npm test` builds first).
 */
export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_FOR_UNIT_SPECS.join('|')})/)`],
      testMatch: [
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/clients/*/src/**/*.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_REQUIRED_FROM_CJS.join('|')})/)`],
      testMatch: [
        '<rootDir>/libs/**/*.int-spec.ts',
        '<rootDir>/apps/**/*.int-spec.ts',
        '<rootDir>/test/e2e/**/*.e2e-spec.ts',
        '<rootDir>/test/browser/**/*.browser-spec.ts',
      ],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
  maxWorkers: 2,
  testTimeout: 30000,
};
