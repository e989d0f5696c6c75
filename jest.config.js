// @ts-check

/** One `jest` run: unit + API tests (node, real database), client component tests (jsdom), e2e (Chromium). */
/** @type {import('jest').Config['transform']} */
const swc = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
      module: { type: 'commonjs' },
    },
  ],
};

/**
 * Packages published only as ES modules, which the server imports (the IPFS importer, and the HTML parser under
 * sanitize-html): Node (20.19+) loads them as
 * they are, but jest's own module loader cannot before Node 24.9, so jest transforms them to CommonJS like our own
 * code (it leaves the rest of node_modules as it is), and tests/helpers/esm-resolver.js finds their entry points.
 */
const ES_MODULE_PACKAGES = [
  'ipfs-unixfs-importer',
  'ipfs-unixfs',
  '@ipld/dag-pb',
  'multiformats',
  '@multiformats/murmur3',
  'blockstore-core',
  'interface-blockstore',
  'interface-store',
  'hamt-sharding',
  'it-[a-z-]+',
  'progress-events',
  'protons-runtime',
  'uint8arraylist',
  'uint8arrays',
  'uint8-varint',
  'htmlparser2',
  'domhandler',
  'domutils',
  'dom-serializer',
  'domelementtype',
  'entities',
];

/** The node projects run server code: they resolve and transform those packages. */
const serverCode = {
  resolver: '<rootDir>/tests/helpers/esm-resolver.js',
  transformIgnorePatterns: [`/node_modules/(?!(${ES_MODULE_PACKAGES.join('|')})/)`],
};

/** @type {import('jest').Config} */
const config = {
  testTimeout: 30_000,
  // Every core works: each API and e2e file has its own database on the run's one server, and the jsdom files
  // share nothing, so files run side by side. (A third worker on 2 cores gained 4% and slowed every file by half.)
  maxWorkers: '100%',
  // The default reporter, then the ten slowest files and the wall time, so a file that grew slow is seen.
  reporters: ['default', '<rootDir>/tests/helpers/slowest-files-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform: swc,
      ...serverCode,
      testMatch: ['<rootDir>/tests/unit/**/*.test.ts'],
    },
    {
      displayName: 'api',
      testEnvironment: 'node',
      transform: swc,
      ...serverCode,
      testMatch: ['<rootDir>/tests/api/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/tests/helpers/global-teardown.ts',
    },
    {
      displayName: 'client',
      testEnvironment: 'jsdom',
      transform: swc,
      testMatch: ['<rootDir>/tests/client/**/*.test.tsx'],
      setupFilesAfterEnv: ['<rootDir>/tests/client/setup.ts'],
      moduleNameMapper: {
        '^antd/es/(.*)$': 'antd/lib/$1',
        '^@ant-design/icons/es/(.*)$': '@ant-design/icons/lib/$1',
        '\\.(css|less|svg|png|jpg|webp)$': '<rootDir>/tests/client/file-stub.ts',
      },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform: swc,
      ...serverCode,
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/tests/helpers/global-teardown.ts',
    },
  ],
};

module.exports = config;
