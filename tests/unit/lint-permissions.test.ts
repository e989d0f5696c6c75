/**
 * The linter refuses a check of the admin role written inline in the server: such checks are made only by the
 * helpers of server/lib/permissions.ts, so that each rule and each answer (403 or 404) has one place.
 */
import { lintSnippets } from '../helpers/lint';

/** An existing module file: the linter reads each snippet as that file. */
const MODULE_FILE = 'server/modules/wallet/wallet.service.ts';
const PERMISSIONS_FILE = 'server/lib/permissions.ts';
const MESSAGE =
  'Check roles with the helpers of server/lib/permissions.ts (isAdmin, requireAdmin, requireSelfOrAdmin, requireOwnerOrAdmin…), not inline: they give each refusal its one answer.';

const check = (expression: string) => `
interface Caller {
  userId: string;
  role: 'admin' | 'user';
}
export function mayApprove(user: Caller | undefined, ownerId: string): boolean {
  return ${expression};
}
`;

const REFUSED: [string, string][] = [
  ["user?.role === 'admin'", check("user?.role === 'admin'")],
  ["user!.role !== 'admin'", check("user!.role !== 'admin'")],
  ["'admin' === user?.role", check("'admin' === user?.role")],
  ["user?.role == 'admin' || user?.userId === ownerId", check("user?.role == 'admin' || user?.userId === ownerId")],
  ["(user as Caller).role === 'admin'", check("(user as Caller).role === 'admin'")],
  ["({ role }) => role === 'admin'", `export const isBoss = ({ role }: { role: string }) => role === 'admin';\n`],
  [
    "switch (user.role) { case 'admin': … }",
    `export function label(user: { role: string }): string {\n  switch (user.role) {\n    case 'admin':\n      return 'boss';\n    default:\n      return 'member';\n  }\n}\n`,
  ],
];
const IN_PERMISSIONS = check("user?.role === 'admin'");
const OTHER_FIELD = `export const toSupport = (receiverId: string) => receiverId === 'admin';\n`;

/** The messages of the rule that refuses restricted syntax, for each snippet in the order of `snippets`. */
let restricted: string[][];

beforeAll(async () => {
  const snippets = [
    ...REFUSED.map(([, code]) => ({ code, filePath: MODULE_FILE })),
    { code: IN_PERMISSIONS, filePath: PERMISSIONS_FILE },
    { code: OTHER_FIELD, filePath: MODULE_FILE },
  ];
  const results = await lintSnippets(snippets, { rule: 'no-restricted-syntax' });
  restricted = results.map((messages) => messages.map((message) => message.message));
}, 60_000);

describe('inline admin checks in the server', () => {
  it.each(REFUSED.map(([label], index) => [label, index] as const))(
    'when a module checks %s, then the linter refuses it and names the helpers',
    (_label, index) => {
      expect(restricted[index]).toEqual([MESSAGE]);
    },
  );

  it('when the same check is in server/lib/permissions.ts, then the linter accepts it', () => {
    expect(restricted[REFUSED.length]).toEqual([]);
  });

  it('when a module compares another field with "admin" (a recipient named admin), then the linter accepts it', () => {
    expect(restricted[REFUSED.length + 1]).toEqual([]);
  });
});
