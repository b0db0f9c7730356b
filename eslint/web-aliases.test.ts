import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The web app's imports across folders go through #web/..., inside a folder they stay relative. Probes are
 * linted as text at paths inside the app through the repository's configuration, and fixed the same way.
 */

const root = new URL('..', import.meta.url).pathname;
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parserOptions: { projectService: false } } },
  ],
  ruleFilter: ({ ruleId }) => ruleId === 'xtalk/web-aliases',
});
const fixing = new ESLint({
  cwd: root,
  fix: true,
  overrideConfig: [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parserOptions: { projectService: false } } },
  ],
  ruleFilter: ({ ruleId }) => ruleId === 'xtalk/web-aliases',
});

const probe = (source: string) =>
  `import { probe as value } from '${source}';\nexport const probe = value;\n`;

async function problems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(probe(source), { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

async function fixed(filePath: string, code: string): Promise<string | undefined> {
  const [result] = await fixing.lintText(code, { filePath });
  return result?.output;
}

describe('xtalk/web-aliases', () => {
  it('an import climbing out of its folder fails and is fixed to #web/...', async () => {
    for (const [file, source] of [
      ['apps/web/src/features/chat/components/lint-probe.tsx', '../../../lib/i18n'],
      ['apps/web/src/app/room/lint-probe.tsx', '../../features/chat/utils/chat-items'],
      ['apps/web/src/app/lint-probe.tsx', '../lib/router'],
      ['apps/web/src/components/ui/lint-probe.tsx', '../../lib/cn'],
    ] as const) {
      expect(await problems(file, source), source).toEqual([
        expect.stringMatching(/^xtalk\/web-aliases: .* leaves .*: import it as '#web\//),
      ]);
    }
    const code = [
      "import { useI18n } from '../../../lib/i18n';",
      "export const load = () => import('../../voice/utils/wav');",
      "vi.mock('../../../lib/clipboard', () => ({}));",
      'export const probe = useI18n;',
      '',
    ].join('\n');
    expect(await fixed('apps/web/src/features/chat/components/lint-probe.test.tsx', code)).toBe(
      [
        "import { useI18n } from '#web/lib/i18n';",
        "export const load = () => import('#web/features/voice/utils/wav');",
        "vi.mock('#web/lib/clipboard', () => ({}));",
        'export const probe = useI18n;',
        '',
      ].join('\n'),
    );
  });

  it('an import through #web/ inside its own folder fails and is fixed to a relative one', async () => {
    const file = 'apps/web/src/features/chat/components/lint-probe.tsx';
    expect(await problems(file, '#web/features/chat/utils/chat-items')).toEqual([
      expect.stringMatching(/inside features\/chat: import it relatively, as '..\/utils\/chat-items'/),
    ]);
    expect(await fixed(file, probe('#web/features/chat/components/message-list'))).toBe(
      probe('./message-list'),
    );
  });

  it('imports inside a folder, across folders through #web/ and from the root pass', async () => {
    const passing = [
      ['apps/web/src/features/chat/components/lint-probe.tsx', '../utils/chat-items'],
      ['apps/web/src/features/chat/components/lint-probe.tsx', '#web/lib/i18n'],
      ['apps/web/src/lib/i18n/lint-probe.ts', '../storage'],
      ['apps/web/src/app/room/lint-probe.tsx', '../require-auth'],
      ['apps/web/src/main.tsx', './app/app'],
      ['apps/web/src/features/chat/lint-probe.ts', '@xtalk/protocol'],
    ] as const;
    for (const [file, source] of passing) expect(await problems(file, source), source).toEqual([]);
  });
});
