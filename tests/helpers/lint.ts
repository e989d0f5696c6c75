/**
 * Runs the repository's ESLint (its real eslint.config.mjs) on snippets of code, each read as if it were the file
 * at a given path, for tests that prove a lint rule. ESLint loads its flat config with a dynamic `import()`,
 * which jest's module sandbox refuses, so the linting runs in a child Node process.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Linter } from 'eslint';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export interface Snippet {
  code: string;
  /** Where the code is read as being, relative to the repository (e.g. `server/modules/wallet/wallet.service.ts`). */
  filePath: string;
}

const RUNNER = `
const path = require('node:path');
const { ESLint } = require('eslint');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const { cwd, snippets, rule } = JSON.parse(input);
  const eslint = new ESLint({
    cwd,
    ...(rule && {
      ruleFilter: ({ ruleId }) => ruleId === rule,
      overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    }),
  });
  const answers = [];
  for (const { code, filePath } of snippets) {
    const [result] = await eslint.lintText(code, { filePath: path.join(cwd, filePath) });
    answers.push(result.messages);
  }
  process.stdout.write(JSON.stringify(answers));
});
`;

/**
 * The messages ESLint gives for each snippet, in order. With `rule`, only that rule runs, without type information
 * (building the TypeScript program takes half a minute): for a rule that reads the syntax alone.
 */
export function lintSnippets(snippets: Snippet[], { rule }: { rule?: string } = {}): Promise<Linter.LintMessage[][]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', RUNNER], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`ESLint failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout) as Linter.LintMessage[][]);
    });
    child.stdin!.end(JSON.stringify({ cwd: REPO_ROOT, snippets, rule }));
  });
}
