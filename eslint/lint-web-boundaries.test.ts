import { readdirSync } from 'node:fs';
import type { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { eslint, problems, root } from './lint-probes.js';

// The web app's boundaries: features never import each other nor the app; shared code sits below both.
describe('web boundaries', () => {
  it('a feature importing another feature fails, through #web/ or climbing; itself or shared code passes', async () => {
    const crossing = /no-restricted-paths: .*Features do not import each other/;
    expect(
      await problems(
        'apps/web/src/features/chat/lint-probe.ts',
        "import { validateWav } from '#web/features/voice/utils/wav';\nexport const probe = validateWav;\n",
      ),
    ).toEqual([expect.stringMatching(crossing)]);
    expect(
      await problems(
        'apps/web/src/features/chat/components/lint-probe.ts',
        "import { validateWav } from '../../voice/utils/wav';\nexport const probe = validateWav;\n",
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(crossing)]));
    expect(
      await problems(
        'apps/web/src/features/voice/lint-probe.ts',
        "import { validateWav } from './utils/wav';\nimport { cn } from '#web/lib/cn';\nexport const probe = [validateWav, cn];\n",
      ),
    ).toEqual([]);
  });

  it('a feature importing the app fails, and so does shared code importing a feature', async () => {
    expect(
      await problems(
        'apps/web/src/features/chat/lint-probe.ts',
        "import { App } from '#web/app/app';\nexport const probe = App;\n",
      ),
    ).toEqual([expect.stringMatching(/no-restricted-paths: .*Features do not import the app/)]);
    expect(
      await problems(
        'apps/web/src/lib/lint-probe.ts',
        "import { validateWav } from '#web/features/voice/utils/wav';\nexport const probe = validateWav;\n",
      ),
    ).toEqual([expect.stringMatching(/no-restricted-paths: .*Shared code sits below features and app/)]);
  });

  it('a toast comes from lib/toast, which mounts the toaster; sonner itself only there and in tests', async () => {
    const sonner = "import { toast } from 'sonner';\nexport const probe = toast;\n";
    expect(await problems('apps/web/src/features/chat/lint-probe.ts', sonner)).toEqual([
      expect.stringMatching(/no-restricted-imports: .*Import toast from lib\/toast/),
    ]);
    expect(await problems('apps/web/src/lib/toast.ts', sonner)).toEqual([]);
    expect(await problems('apps/web/src/features/chat/lint-probe.test.ts', sonner)).toEqual([]);
    expect(
      await problems(
        'apps/web/src/features/chat/lint-probe.ts',
        "import { toast } from '#web/lib/toast';\nexport const probe = toast;\n",
      ),
    ).toEqual([]);
  });

  it('guards every feature folder on disk, with no list to keep up to date', async () => {
    const features = readdirSync(`${root}apps/web/src/features`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const config = (await eslint.calculateConfigForFile('apps/web/src/features/chat/x.ts')) as Linter.Config;
    const [, options] = config.rules?.['import-x/no-restricted-paths'] as [
      unknown,
      { zones: { target: string | string[] }[] },
    ];
    const guarded = options.zones.flatMap((zone) => zone.target);
    for (const feature of features) expect(guarded).toContain(`./apps/web/src/features/${feature}`);
  });
});
