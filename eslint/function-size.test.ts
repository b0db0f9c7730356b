import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { functionSizeRule } from './function-size.js';
import { sizeExceptions } from './size-exceptions.js';

/*
 * The size rule measures every function but the callbacks handed to describe/it/test, which are lists of
 * cases. Probes are built to a line count and linted as text, by the rule alone and through the
 * repository's configuration at paths where it applies.
 */

const linter = new Linter({ configType: 'flat' });
const ruleOnly: Linter.Config[] = [
  {
    plugins: { xtalk: { rules: { 'function-size': functionSizeRule } } },
    rules: { 'xtalk/function-size': ['error', { max: 100 }] },
  },
];

/** `lines` lines of statements, so a function around them spans lines + 2. */
const body = (lines: number) => Array.from({ length: lines }, (_, index) => `  use(${index});`).join('\n');

/** A function declaration `name` spanning exactly `lines` lines. */
const fn = (name: string, lines: number) => `function ${name}() {\n${body(lines - 2)}\n}`;

function problems(code: string): string[] {
  return linter.verify(code, ruleOnly).map((message) => message.message);
}

describe('xtalk/function-size', () => {
  it('passes a function of 100 lines and fails one of 101, with its name and size', () => {
    expect(problems(fn('hundred', 100))).toEqual([]);
    expect(problems(fn('long', 101))).toEqual([
      "Function 'long' has too many lines (101). Maximum allowed is 100.",
    ]);
    expect(problems(`const step = async () => {\n${body(99)}\n};`)).toEqual([
      "Async arrow function 'step' has too many lines (101). Maximum allowed is 100.",
    ]);
  });

  it('does not measure the callbacks of describe, it, test and their variants', () => {
    for (const call of [
      'it',
      'test',
      'describe',
      'it.skip',
      'it.only',
      'test.concurrent',
      'describe.each([1])',
      'it.each([1])',
      'test.concurrent.each([1])',
    ]) {
      expect(problems(`${call}('a case', async () => {\n${body(99)}\n});`), call).toEqual([]);
    }
  });

  it('measures a function inside an it callback, and the hooks', () => {
    expect(problems(`it('a case', () => {\n${fn('helper', 101)}\n  helper();\n});`)).toEqual([
      "Function 'helper' has too many lines (101). Maximum allowed is 100.",
    ]);
    expect(
      problems(`describe('cases', () => {\n  it('a case', () => {\n${fn('deep', 101)}\n  });\n});`),
    ).toEqual(["Function 'deep' has too many lines (101). Maximum allowed is 100."]);
    for (const hook of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
      expect(problems(`${hook}(() => {\n${body(99)}\n});`), hook).toEqual([
        'Arrow function has too many lines (101). Maximum allowed is 100.',
      ]);
    }
    // a function merely named like a test runner's is measured when it is not the callback
    expect(problems(`const it = () => {\n${body(99)}\n};`)).toHaveLength(1);
  });

  it('measures a method from its name', () => {
    expect(problems(`class A {\n  long() {\n${body(99)}\n  }\n}`)).toEqual([
      "Function 'long' has too many lines (101). Maximum allowed is 100.",
    ]);
  });
});

describe('the size rules in the repository', () => {
  const eslint = new ESLint({
    cwd: new URL('..', import.meta.url).pathname,
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
  const sizeProblems = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((message) => /max-lines|function-size/.test(message.ruleId ?? ''))
      .map((message) => `${message.ruleId}: ${message.message}`);
  };

  it('hold in product code, tests, bench, e2e, scripts and the lint rules', async () => {
    const long = `export ${fn('long', 101)}\n`;
    for (const path of [
      'apps/server/src/rooms/lint-probe.ts',
      'apps/server/src/rooms/lint-probe.test.ts',
      'apps/server/src/testing/lint-probe.services.test.ts',
      'apps/web/src/features/chat/lint-probe.tsx',
      'packages/protocol/src/lint-probe.ts',
      'bench/lint-probe.ts',
      'e2e/lint-probe.e2e.ts',
      'scripts/lint-probe.ts',
      'eslint/lint-probe.ts',
    ]) {
      expect(await sizeProblems(path, long), path).toEqual([
        "xtalk/function-size: Function 'long' has too many lines (101). Maximum allowed is 100.",
      ]);
    }
    const longFile = Array.from({ length: 351 }, (_, index) => `export const line${index} = ${index};`);
    expect(await sizeProblems('apps/server/src/rooms/lint-probe.test.ts', longFile.join('\n'))).toEqual([
      'max-lines: File has too many lines (351). Maximum allowed is 350.',
    ]);
  });

  it('let the named exceptions pass, each with a reason', async () => {
    for (const exception of sizeExceptions)
      expect(exception.reason.length, exception.files.join()).toBeGreaterThan(10);
    expect(sizeExceptions.length, 'the lasting list stays short').toBeLessThanOrEqual(5);
    expect(await sizeProblems('apps/server/src/store/migrations.ts', `export ${fn('long', 101)}\n`)).toEqual(
      [],
    );
  });
});
