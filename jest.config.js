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

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    '^.+/node_modules/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_REQUIRED_FROM_CJS.join('|')})/)`],
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/apps/**/*.spec.ts',
    '<rootDir>/libs/**/*.spec.ts',
    '<rootDir>/test/e2e/**/*.e2e-spec.ts',
    '<rootDir>/test/browser/**/*.browser-spec.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
};
