// @ts-check
/**
 * ESLint (flat config). For now it holds the test suite to its house rules: every test asserts something, none
 * is focused or skipped, and none waits for a fixed time (a test waits for the state it needs, or moves time
 * itself: tests/helpers/wait.ts and clock.ts).
 */
import jest from 'eslint-plugin-jest';
import tseslint from 'typescript-eslint';

/** Helpers that assert (they call `expect` inside), so a test that calls them asserts something. */
const ASSERTING_HELPERS = [
  'expect',
  'untilEqual',
  'untilComplete',
  'chooseMainTag',
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

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**', 'tests/e2e/screenshots/**'] },
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
