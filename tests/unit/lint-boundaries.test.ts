/**
 * The linter keeps the layers apart. The client's top (app/: routes, store assembly, boot; the layouts) imports the
 * features, and nothing below it imports it back. Tests and scripts enter a server module or a client feature through
 * its index.ts, or through its testing.ts (models and internals a test sets up state with), which production code
 * never imports.
 */
import { lintSnippets, type Snippet } from '../helpers/lint';

const FEATURE_FILE = 'client/src/features/home/index.ts';
const SHARED_FILE = 'client/src/lib/links.ts';
const APP_FILE = 'client/src/app/routes.tsx';
const TEST_FILE = 'tests/api/wallet-boundaries.test.ts';
const CLIENT_TEST_FILE = 'tests/client/home-boundaries.test.tsx';
const SCRIPT_FILE = 'scripts/bench-boundaries.ts';
const SERVER_FILE = 'server/modules/wallet/wallet.service.ts';

const APP_FROM_FEATURE_MESSAGE =
  'A feature does not import the top of the client (app, layouts): take the typed hooks, the UI slice and the constants from lib/';
const APP_FROM_SHARED_MESSAGE = 'Shared client code (components, lib, api) does not import features, nor the top (app, layouts)';
const APP_PATH_MESSAGE = (source: string) =>
  `'${source}' import is restricted from being used by a pattern. The top of the client (app/) is not imported from below it: the typed hooks are in lib/storeHooks, the UI slice in lib/ui, the constants in lib/constants.`;
const DEEP_IMPORT_MESSAGE = (file: string) =>
  `The entry point '${file}' is not allowed in elements of type 'server-module', or elements of type 'client-feature'. Disallowed in rule 1`;
const TESTING_FROM_PRODUCTION_MESSAGE = (source: string) =>
  `'${source}' import is restricted from being used by a pattern. testing.ts is the entry for tests and scripts: production code imports a module or a feature through its index.ts.`;

const CASES = {
  featureImportsAppHooks: { filePath: FEATURE_FILE, code: `import { useAppSelector } from '../../app/hooks';\nexport const use = useAppSelector;\n` },
  featureImportsAppStoreType: {
    filePath: FEATURE_FILE,
    code: `import type { RootState } from '../../app/store';\nexport const read = (state: RootState) => state.ui;\n`,
  },
  featureImportsLayout: { filePath: FEATURE_FILE, code: `import { FrontLayout } from '../../layouts/front';\nexport const Frame = FrontLayout;\n` },
  featureImportsSharedHooks: { filePath: FEATURE_FILE, code: `import { useAppSelector } from '../../lib/storeHooks';\nexport const use = useAppSelector;\n` },
  sharedImportsAppRoutes: { filePath: SHARED_FILE, code: `import { ROUTES } from '../app/routes';\nexport const routes = ROUTES;\n` },
  appImportsFeature: { filePath: APP_FILE, code: `import { loadHomePage } from '../features/home';\nexport const load = loadHomePage;\n` },
  testDeepImportsService: {
    filePath: TEST_FILE,
    code: `import { getWalletSummary } from '../../server/modules/wallet/wallet.service';\nexport const read = getWalletSummary;\n`,
  },
  testImportsModuleIndex: { filePath: TEST_FILE, code: `import * as wallet from '../../server/modules/wallet';\nexport const module = wallet;\n` },
  testImportsModuleTestingEntry: {
    filePath: TEST_FILE,
    code: `import * as usersTesting from '../../server/modules/users/testing';\nexport const models = usersTesting;\n`,
  },
  clientTestDeepImportsPage: {
    filePath: CLIENT_TEST_FILE,
    code: `import { HomePage } from '../../client/src/features/home/pages/HomePage';\nexport const Page = HomePage;\n`,
  },
  scriptDeepImportsModel: {
    filePath: SCRIPT_FILE,
    code: `import { UserModel } from '../server/modules/users/users.model';\nexport const Users = UserModel;\n`,
  },
  productionImportsTestingEntry: { filePath: SERVER_FILE, code: `import * as users from '../users/testing';\nexport const models = users;\n` },
  moduleImportsOwnTestingEntry: { filePath: SERVER_FILE, code: `import * as internals from './testing';\nexport const models = internals;\n` },
  featureImportsTestingEntry: { filePath: FEATURE_FILE, code: `import * as auth from '../auth/testing';\nexport const internals = auth;\n` },
} satisfies Record<string, Snippet>;

type CaseName = keyof typeof CASES;
const RULES = ['boundaries/element-types', 'boundaries/entry-point', 'no-restricted-imports'];

/** For each case, the messages of the boundary rules, as `rule: message`. */
const messages = {} as Record<CaseName, string[]>;

beforeAll(async () => {
  const names = Object.keys(CASES) as CaseName[];
  // One rule per run, each without type information (the rules read imports and paths only).
  const perRule = await Promise.all(
    RULES.map((rule) =>
      lintSnippets(
        names.map((name) => CASES[name]),
        { rule },
      ),
    ),
  );
  names.forEach((name, index) => {
    messages[name] = perRule.flatMap((results) => results[index]!.map((message) => `${message.ruleId}: ${message.message}`));
  });
}, 120_000);

describe('the client top (app/)', () => {
  it("refuses a feature importing '../../app/hooks' (the typed hooks' old place in app/)", () => {
    expect(messages.featureImportsAppHooks).toEqual([`no-restricted-imports: ${APP_PATH_MESSAGE('../../app/hooks')}`]);
  });

  it("refuses a feature importing the store's type from app/, even type-only", () => {
    expect(messages.featureImportsAppStoreType).toEqual([
      `boundaries/element-types: ${APP_FROM_FEATURE_MESSAGE}`,
      `no-restricted-imports: ${APP_PATH_MESSAGE('../../app/store')}`,
    ]);
  });

  it('refuses a feature importing a layout', () => {
    expect(messages.featureImportsLayout).toEqual([`boundaries/element-types: ${APP_FROM_FEATURE_MESSAGE}`]);
  });

  it('refuses shared code (lib) importing app/', () => {
    expect(messages.sharedImportsAppRoutes).toEqual([
      `boundaries/element-types: ${APP_FROM_SHARED_MESSAGE}`,
      `no-restricted-imports: ${APP_PATH_MESSAGE('../app/routes')}`,
    ]);
  });

  it('lets a feature take the typed hooks from lib/storeHooks, and app/ import a feature', () => {
    expect(messages.featureImportsSharedHooks).toEqual([]);
    expect(messages.appImportsFeature).toEqual([]);
  });
});

describe('tests and scripts enter a module or a feature through index.ts or testing.ts', () => {
  it("refuses a test deep-importing a server module's service", () => {
    expect(messages.testDeepImportsService).toEqual([`boundaries/entry-point: ${DEEP_IMPORT_MESSAGE('wallet.service.ts')}`]);
  });

  it("refuses a client test deep-importing a feature's page", () => {
    expect(messages.clientTestDeepImportsPage).toEqual([`boundaries/entry-point: ${DEEP_IMPORT_MESSAGE('pages/HomePage.tsx')}`]);
  });

  it("refuses a script deep-importing a module's model", () => {
    expect(messages.scriptDeepImportsModel).toEqual([`boundaries/entry-point: ${DEEP_IMPORT_MESSAGE('users.model.ts')}`]);
  });

  it("lets a test import a module's index.ts and its testing.ts", () => {
    expect(messages.testImportsModuleIndex).toEqual([]);
    expect(messages.testImportsModuleTestingEntry).toEqual([]);
  });

  it('refuses production code importing a testing entry, on the server and on the client', () => {
    expect(messages.productionImportsTestingEntry).toEqual([
      `boundaries/entry-point: ${DEEP_IMPORT_MESSAGE('testing.ts')}`,
      `no-restricted-imports: ${TESTING_FROM_PRODUCTION_MESSAGE('../users/testing')}`,
    ]);
    expect(messages.featureImportsTestingEntry).toEqual([
      `boundaries/entry-point: ${DEEP_IMPORT_MESSAGE('testing.ts')}`,
      `no-restricted-imports: ${TESTING_FROM_PRODUCTION_MESSAGE('../auth/testing')}`,
    ]);
  });

  it('refuses production code importing its own testing entry', () => {
    expect(messages.moduleImportsOwnTestingEntry).toEqual([`no-restricted-imports: ${TESTING_FROM_PRODUCTION_MESSAGE('./testing')}`]);
  });
});
