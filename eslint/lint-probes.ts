import { ESLint } from 'eslint';

/*
 * The lint configuration is code too: probe files that cross a boundary must fail with the boundary's
 * message, and the same import from where it is allowed must pass. Probes are linted as text at paths
 * inside the modules (nothing is written); the type-aware rules are left out of the probes (their project
 * service only knows files on disk) and checked for being on instead.
 */

export const root = new URL('..', import.meta.url).pathname;
export const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
      },
    },
  ],
});

/** The rule ids and messages of the errors ESLint reports for `code` at `filePath`. */
export async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}
