// @ts-check
/**
 * ESLint (flat config).
 * - Boundaries: a server module (server/modules/<name>) or a client feature (client/src/features/<name>) is
 *   entered only through its index.ts, and no two of them import each other, directly or round a loop. Shared
 *   code (server/lib; client/src/components, lib) never imports a module or a feature. A server module never
 *   imports another module's model.
 * - The client's top (client/src/app, layouts, embed: the routes, the store's assembly, the boot) imports the
 *   features; nothing below it imports it back. What every feature shares (typed store hooks, the UI slice, constants)
 *   lives in client/src/lib and components.
 * - Tests and scripts enter a module or a feature the same way, through its index.ts, or through its testing.ts: the
 *   models and internals a test sets up state with. Production code never imports a testing.ts.
 * - The test suite's house rules: every test asserts something, none is focused or skipped, and none waits for a
 *   fixed time (a test waits for the state it needs, or moves time itself: tests/helpers/wait.ts and clock.ts).
 */
import boundaries from 'eslint-plugin-boundaries';
import importX from 'eslint-plugin-import-x';
import jest from 'eslint-plugin-jest';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Helpers that assert (they call `expect` inside), so a test that calls them asserts something. */
const ASSERTING_HELPERS = [
  'expect',
  'untilEqual',
  'untilComplete',
  'chooseMainTag',
  // Helpers named expect… assert inside (e.g. expectEveryLinkLands).
  'expect*',
  // supertest's `.expect(status)` asserts, wherever the chain starts (`request(app).get(…)`, a helper that returns it).
  '*.expect',
  'request.**.expect',
];

const FIXED_WAITS = [
  {
    selector: "CallExpression[callee.property.name='waitForTimeout']",
    message: 'No fixed waits: wait for the state itself (a locator, waitForFunction, untilEqual), or drive the page clock (page.clock).',
  },
  {
    selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'][arguments.1.type='Literal'][arguments.1.value>0]",
    message: 'No sleeps: wait for the state itself (waitUntil, untilEqual, findBy…), or drive time (freezeDate, jest fake timers).',
  },
];

/** A role is checked only by server/lib/permissions.ts, which gives each refusal its one answer (403 or 404). */
const INLINE_ADMIN_CHECK_MESSAGE =
  'Check roles with the helpers of server/lib/permissions.ts (isAdmin, requireAdmin, requireSelfOrAdmin, requireOwnerOrAdmin…), not inline: they give each refusal its one answer.';
/**
 * A role read as `x.role`, `x?.role` or a variable named `role`, on the side `side` of a comparison.
 * @param {string} side
 */
const roleOn = (side) => `:matches([${side}.property.name='role'], [${side}.expression.property.name='role'], [${side}.name='role'])`;
const INLINE_ADMIN_CHECKS = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/][right.type='Literal'][right.value='admin']${roleOn('left')}`, message: INLINE_ADMIN_CHECK_MESSAGE },
  { selector: `BinaryExpression[operator=/^[!=]==?$/][left.type='Literal'][left.value='admin']${roleOn('right')}`, message: INLINE_ADMIN_CHECK_MESSAGE },
  { selector: `SwitchStatement${roleOn('discriminant')} > SwitchCase[test.value='admin']`, message: INLINE_ADMIN_CHECK_MESSAGE },
];

/** The parts of the tree the boundary rules know: each file belongs to the first pattern that matches its folder. */
const ELEMENTS = [
  { type: 'server-module', pattern: 'server/modules/*', mode: 'folder', capture: ['name'] },
  { type: 'server-shared', pattern: 'server/lib', mode: 'folder' },
  { type: 'server-app', pattern: 'server/*', mode: 'folder' },
  { type: 'server-root', pattern: 'server/*.ts', mode: 'file' },
  { type: 'client-feature', pattern: 'client/src/features/*', mode: 'folder', capture: ['name'] },
  { type: 'client-shared', pattern: 'client/src/(components|lib|api|styles)', mode: 'folder' },
  // The top of the client: app/ (routes, store assembly, boot), the layouts around the pages, the embed's entry.
  { type: 'client-app', pattern: 'client/src/*', mode: 'folder' },
  { type: 'client-root', pattern: 'client/src/*.tsx', mode: 'file' },
  { type: 'tests', pattern: 'tests', mode: 'folder' },
  { type: 'scripts', pattern: 'scripts', mode: 'folder' },
];

/** The boundary plugin's view of the tree, for the sources and for the tests and scripts. */
const BOUNDARY_SETTINGS = {
  'boundaries/elements': ELEMENTS,
  'boundaries/include': ['server/**/*', 'client/src/**/*', 'tests/**/*', 'scripts/**/*'],
  'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
  'import/resolver': { typescript: { project: ['server/tsconfig.json', 'client/tsconfig.json'], noWarnOnMultipleProjects: true } },
};

/**
 * Another module or feature only through its entry files: what it exports there is what others may use.
 * @param {string[]} entries
 */
const entryPointOnly = (entries) => [
  'error',
  {
    default: 'allow',
    rules: [
      { target: ['server-module', 'client-feature'], disallow: '**' },
      { target: ['server-module', 'client-feature'], allow: entries },
    ],
  },
];
/** entry.ts: a client feature's pages for the route table to load lazily, apart from the rest of the feature. */
const ENTRIES = ['index.ts', 'index.tsx', 'entry.ts'];
/** testing.ts: what tests (and the seed and bench scripts) need beyond the index, e.g. a module's models. */
const TESTING_ENTRY = 'testing.ts';

/** A testing entry is for tests and scripts: production code, inside its own module or feature too, never imports one. */
const NO_TESTING_ENTRY = {
  regex: '(^|/)testing(\\.ts)?$',
  message: 'testing.ts is the entry for tests and scripts: production code imports a module or a feature through its index.ts.',
};

/** The top of the client, by the path an import names. */
const NO_APP_IMPORT = {
  regex: '^(\\.\\./)+app(/.*)?$',
  message:
    'The top of the client (app/) is not imported from below it: the typed hooks are in lib/storeHooks, the UI slice in lib/ui, the constants in lib/constants.',
};

/**
 * Components and hooks reach the server through the cached data layer's hooks (api/generated/endpoints): a generated
 * operation called by hand, in a useEffect or a handler, bypasses the cache (no de-duplication, no invalidation). Its
 * types stay importable.
 */
const NO_DIRECT_OPERATION = {
  group: ['**/api/generated/operations'],
  allowTypeImports: true,
  message:
    'Read and change server data through the cached data layer: the generated hooks of api/generated/endpoints (see docs/client-data.md). Only the flows (sagas, *.flows.ts, auth.session) call operations.',
};

const SOURCES = ['server/**/*.ts', 'client/src/**/*.{ts,tsx}', 'scripts/**/*.ts'];
/** The sources a tsconfig covers, checked with type information (scripts run through tsx, outside them). */
const TYPED = ['server/**/*.ts', 'client/src/**/*.{ts,tsx}', 'client/build/**/*.ts', 'scripts/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**', 'tests/e2e/screenshots/**', '**/generated/**'] },
  {
    files: SOURCES,
    languageOptions: { parser: tseslint.parser },
    plugins: { boundaries, 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      ...BOUNDARY_SETTINGS,
      // import-x reads the imported files itself to follow the import graph: with the TypeScript parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      'boundaries/entry-point': entryPointOnly(ENTRIES),
      // Shared code stays below the features, and the features below the top: each is used by what is above it, never
      // the other way round.
      'boundaries/element-types': [
        'error',
        {
          default: 'allow',
          rules: [
            { from: ['server-shared'], disallow: ['server-module', 'server-app'], message: 'server/lib is shared code: it does not import modules' },
            {
              from: ['client-shared'],
              disallow: ['client-feature', 'client-app', 'client-root'],
              message: 'Shared client code (components, lib, api) does not import features, nor the top (app, layouts)',
            },
            // The typed store hooks (lib/storeHooks), the UI slice (lib/ui) and the constants (lib/constants) are below
            // the features; the store, the routes and the boot are above them.
            {
              from: ['client-feature'],
              disallow: ['client-app', 'client-root'],
              message: 'A feature does not import the top of the client (app, layouts): take the typed hooks, the UI slice and the constants from lib/',
            },
          ],
        },
      ],
      // No loop of imports, however long (type-only imports are left out: they vanish when compiled).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // typescript-eslint's recommended rules with type information, where a tsconfig covers the files.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An ObjectId in a template is its hex string, as intended (keys such as `content:{id}`).
      '@typescript-eslint/restrict-template-expressions': ['error', { allow: [{ name: 'ObjectId', from: 'package', package: 'bson' }] }],
      // An async function without an await still turns a throw into a rejected promise, which is what callers of a
      // promise-returning interface (a storage driver's read of a bad key) handle.
      '@typescript-eslint/require-await': 'off',
      // Express tells an error handler by its four parameters: the last is named but unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // redux-saga types what `yield` answers as any: each saga gives the result its type on the variable it assigns
    // (`const result: GetAllTagsResult = yield call(getAllTags)`), which this rule cannot tell from an unchecked any.
    files: ['client/src/**/*.saga.ts', 'client/src/features/*/*.flows.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Tests and scripts: a module or a feature through its index.ts, or its testing.ts (its models, its internals).
    files: ['tests/**/*.{ts,tsx}', 'scripts/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { boundaries },
    settings: BOUNDARY_SETTINGS,
    rules: { 'boundaries/entry-point': entryPointOnly([...ENTRIES, TESTING_ENTRY]) },
  },
  {
    // Production code never imports a testing entry (features and server modules: in the blocks below, which set the
    // same rule).
    files: ['server/**/*.ts', 'client/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TESTING_ENTRY] }] },
  },
  {
    // Below the top, app/ is refused by the path an import names as well as by the file it reaches: a path to a file
    // that has left app/ (the typed hooks, the UI slice and the constants once lived there) is refused for that reason,
    // not only left to fail to resolve.
    files: ['client/src/{features,components,lib,api}/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TESTING_ENTRY, NO_APP_IMPORT] }] },
  },
  {
    // The client's server state goes through one cached data layer; only the flows (the player, knacks, uploads, NFT mode and the
    // session) call the generated operations themselves.
    files: ['client/src/{app,features,components,lib,layouts}/**/*.{ts,tsx}'],
    ignores: ['client/src/**/*.saga.ts', 'client/src/features/*/*.flows.ts', 'client/src/features/auth/auth.session.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_DIRECT_OPERATION] }] },
  },
  {
    // A module writes only its own collections: from another module it takes the read-only readers
    // (`contentReads`, `userReads`...) and the calls that change data, never the model.
    files: ['server/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_TESTING_ENTRY,
            {
              regex: '^\\.\\./[\\w-]+$',
              importNamePattern: 'Model$',
              message: "Another module's model: read through its `…Reads` and change data through its calls.",
            },
            {
              // A limit checked before the work and counted after it lets every call of a burst sent at once pass
              // the check before the first one is counted: the count and the check are one step, before the work.
              group: ['**/lib/rate-limit'],
              importNames: ['countHit'],
              message: 'Limit a call with consumeLimit, before its work: a count made after the work lets a burst of concurrent calls all pass.',
            },
          ],
        },
      ],
    },
  },
  {
    // Roles are checked in one place. A later config object that sets no-restricted-syntax for server files replaces
    // these entries for them: add its entries to this list instead.
    files: ['server/**/*.ts'],
    ignores: ['server/lib/permissions.ts'],
    rules: { 'no-restricted-syntax': ['error', ...INLINE_ADMIN_CHECKS] },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['tests/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    plugins: { jest, '@typescript-eslint': tseslint.plugin },
    rules: {
      'jest/expect-expect': ['error', { assertFunctionNames: ASSERTING_HELPERS }],
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-identical-title': 'error',
      'jest/valid-expect': 'error',
      'no-restricted-syntax': ['error', ...FIXED_WAITS],
      '@typescript-eslint/no-require-imports': 'error',
    },
  },
);
