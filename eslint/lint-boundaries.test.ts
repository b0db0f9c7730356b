import { readdirSync, readFileSync } from 'node:fs';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { serverModuleDependencies, serverModuleFolders } from './server-modules.js';

/*
 * The lint configuration is code too: probe files that cross a boundary must fail with the boundary's
 * message, and the same import from where it is allowed must pass. Probes are linted as text at paths
 * inside the modules (nothing is written); the type-aware rules are left out of the probes (their project
 * service only knows files on disk) and checked for being on instead.
 */

const root = new URL('..', import.meta.url).pathname;
const eslint = new ESLint({
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
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

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

describe('server boundaries', () => {
  it('an upward import fails with the row of the module table; a downward one passes', async () => {
    // accounts sits below rooms: it reaches rooms through the port it declares, never by import
    expect(
      await problems(
        'apps/server/src/accounts/links/lint-probe.ts',
        "import { moveRoomData } from '../../rooms/user-merge.js';\nexport const probe = moveRoomData;\n",
      ),
    ).toEqual([
      expect.stringMatching(
        /no-restricted-paths: .* accounts may import only bus, store and the shared files/,
      ),
    ]);
    for (const module of ['rooms', 'translation']) {
      expect(
        await problems(
          `apps/server/src/${module}/lint-probe.ts`,
          "import { createRoomHub } from '../realtime/room-hub.js';\nexport const probe = createRoomHub;\n",
        ),
      ).toEqual([expect.stringMatching(new RegExp(`no-restricted-paths: .* ${module} may import only`))]);
    }
    // no module imports the composition that sits above them all
    expect(
      await problems(
        'apps/server/src/rooms/lint-probe.ts',
        "import { buildApp } from '../app.js';\nexport const probe = buildApp;\n",
      ),
    ).toEqual([expect.stringMatching(/no-restricted-paths: .* rooms may import only accounts, store and/)]);
    expect(
      await problems(
        'apps/server/src/rooms/lint-probe.ts',
        "import { sameText } from '../accounts/sessions/same-text.js';\nimport type { Clock } from '../clock.js';\nexport const probe: [typeof sameText, Clock | undefined] = [sameText, undefined];\n",
      ),
    ).toEqual([]);
    // tests compose the whole app and may import across
    expect(
      await problems(
        'apps/server/src/accounts/lint-probe.test.ts',
        "import { moveRoomData } from '../rooms/user-merge.js';\nexport const probe = moveRoomData;\n",
      ),
    ).toEqual([]);
  });

  it('every server folder has a row in the module table, and the table has no circle', async () => {
    const src = `${root}apps/server/src`;
    const folders = serverModuleFolders(src);
    expect(folders).toContain('accounts');
    const missing = folders.filter((folder) => !(folder in serverModuleDependencies));
    expect(missing, 'add these folders to serverModuleDependencies in eslint/server-modules.js').toEqual([]);
    const rows = serverModuleDependencies as Record<string, string[]>;
    for (const [module, allowed] of Object.entries(rows)) {
      for (const dependency of allowed)
        expect(rows, `${module} -> ${dependency}`).toHaveProperty([dependency]);
    }
    // each module's row lists only modules above it in the table: no circle can form
    const order = Object.keys(rows);
    for (const [module, allowed] of Object.entries(rows)) {
      for (const dependency of allowed) {
        expect(order.indexOf(dependency), `${module} -> ${dependency} runs back up`).toBeLessThan(
          order.indexOf(module),
        );
      }
    }
    const config = (await eslint.calculateConfigForFile('apps/server/src/rooms/x.ts')) as Linter.Config;
    const [, options] = config.rules?.['import-x/no-restricted-paths'] as [
      unknown,
      { zones: { target: string }[] },
    ];
    expect(options.zones.map((zone) => zone.target).sort()).toEqual(
      Object.keys(rows)
        .map((module) => `./apps/server/src/${module}`)
        .sort(),
    );
  });

  it('production code never imports test helpers or benchmark code; tests may', async () => {
    const code = [
      "import { fixture } from '../voice/testing.js';",
      "import { MemoryMeter } from '../translation/testing/index.js';",
      "import { startServer } from '../test/harness.js';",
      "import { summarise } from '../../../../bench/lib/stats.js';",
      'export const probe = [fixture, MemoryMeter, startServer, summarise];',
    ].join('\n');
    // voice may import translation, so only the test-helper rule speaks here
    const found = await problems('apps/server/src/voice/lint-probe.ts', code);
    expect(found).toHaveLength(4);
    for (const problem of found) expect(problem).toMatch(/Production code never imports test helpers/);
    expect(await problems('apps/server/src/voice/lint-probe.test.ts', code)).toEqual([]);
  });

  it("a module's SQL names only its own tables", async () => {
    const code = (sql: string) =>
      `export const probe = (db: { query(sql: string): unknown }) => db.query(${sql});\n`;
    expect(
      await problems(
        'apps/server/src/store/lint-probe.ts',
        code("'delete from sessions where expires_at < now()'"),
      ),
    ).toEqual([expect.stringMatching(/xtalk\/table-owner: Table 'sessions' belongs to the rooms module/)]);
    expect(
      await problems(
        'apps/server/src/rooms/lint-probe.ts',
        code('`select m.id from messages m join users u on u.id = m.user_id`'),
      ),
    ).toEqual([expect.stringMatching(/Table 'users' belongs to the accounts module; rooms goes through/)]);
    expect(
      await problems(
        'apps/server/src/rooms/lint-probe.ts',
        code("'delete from sessions where expires_at < $1'"),
      ),
    ).toEqual([]);
    // prose that happens to contain "from users" is not SQL
    expect(
      await problems('apps/server/src/rooms/lint-probe.ts', code("'Messages from users in the room'")),
    ).toEqual([]);
  });

  it('a cross-module join fails when the table name or the fragment is interpolated', async () => {
    const probe = (lines: string[]) => lines.join('\n') + '\n';
    const joinThroughConstant = probe([
      "const PEOPLE = 'users';",
      'export const probe = (db: { query(sql: string): unknown }) =>',
      '  db.query(`select m.id from messages m join ${PEOPLE} u on u.id = m.user_id`);',
    ]);
    expect(await problems('apps/server/src/rooms/lint-probe.ts', joinThroughConstant)).toEqual([
      expect.stringMatching(/xtalk\/table-owner: Table 'users' belongs to the accounts module; rooms goes/),
    ]);
    // the same constant in the module that owns the table passes
    const ownConstant = probe([
      "const PEOPLE = 'users';",
      'export const probe = (db: { query(sql: string): unknown }) =>',
      '  db.query(`select id from ${PEOPLE} where id = $1`);',
    ]);
    expect(await problems('apps/server/src/accounts/users/lint-probe.ts', ownConstant)).toEqual([]);
    // a statement built from another module's fragment joins its tables out of sight
    const joinThroughFragment = probe([
      "import { sameText as userSelect } from '../accounts/sessions/same-text.js';",
      'export const probe = (db: { query(sql: string): unknown }) =>',
      '  db.query(`select s.id from sessions s left join (${userSelect("$2")}) u on true`);',
    ]);
    expect(await problems('apps/server/src/rooms/lint-probe.ts', joinThroughFragment)).toEqual([
      expect.stringMatching(/xtalk\/table-owner: SQL built from 'userSelect' of the accounts module/),
    ]);
  });

  it('every table the migrations create has an owner', async () => {
    const migrations = ['apps/server/src/store/migrations.ts', 'packages/payments/src/schema.ts']
      .map((file) => readFileSync(`${root}${file}`, 'utf8'))
      .join('\n');
    const tables = [...migrations.matchAll(/create table (?:if not exists )?([a-z_]+)/gi)].map(
      (match) => match[1]!,
    );
    expect(tables.length).toBeGreaterThan(5);
    const config = (await eslint.calculateConfigForFile('apps/server/src/rooms/x.ts')) as Linter.Config;
    const [, { owners: serverTableOwners }] = config.rules?.['xtalk/table-owner'] as [
      unknown,
      { owners: Record<string, string> },
    ];
    const unowned = tables.filter((table) => !(table in serverTableOwners));
    expect(unowned, 'add these tables to serverTableOwners in eslint/table-owner.js').toEqual([]);
  });
});

describe('payment package boundaries', () => {
  it('an import of the server fails; its own ports and the protocol pass', async () => {
    for (const source of ['../../../apps/server/src/credits/index.js', '@xtalk/server']) {
      expect(
        await problems(
          'packages/payments/src/lint-probe.ts',
          `import { createLedger } from '${source}';\nexport const probe = createLedger;\n`,
        ),
        source,
      ).toEqual([
        expect.stringMatching(/no-restricted-imports: .*The payment package never imports the apps/),
      ]);
    }
    // its tests are held to it as well: they run against ports, not the app
    expect(
      await problems(
        'packages/payments/src/lint-probe.test.ts',
        "import { startServer } from '../../../apps/server/src/test/harness.js';\nexport const probe = startServer;\n",
      ),
    ).toEqual([expect.stringMatching(/The payment package never imports the apps/)]);
    expect(
      await problems(
        'packages/payments/src/lint-probe.ts',
        "import { LedgerRefusal } from './ports.js';\nimport { ApiPath } from '@xtalk/protocol';\nexport const probe = [LedgerRefusal, ApiPath];\n",
      ),
    ).toEqual([]);
  });

  it("the package's SQL names only its own tables, and the server's modules leave them alone", async () => {
    const code = (sql: string) =>
      `export const probe = (db: { query(sql: string): unknown }) => db.query(${sql});\n`;
    expect(
      await problems('packages/payments/src/lint-probe.ts', code("'select free from credit_accounts'")),
    ).toEqual([
      expect.stringMatching(/Table 'credit_accounts' belongs to the credits module; @xtalk\/payments/),
    ]);
    expect(
      await problems('apps/server/src/credits/lint-probe.ts', code("'select id from credit_orders'")),
    ).toEqual([
      expect.stringMatching(/Table 'credit_orders' belongs to the @xtalk\/payments module; credits/),
    ]);
    expect(
      await problems('packages/payments/src/lint-probe.ts', code("'select id from credit_orders'")),
    ).toEqual([]);
  });
});

describe('shared service package boundaries', () => {
  it('an import of the server or the payment package fails; the protocol passes', async () => {
    for (const source of ['../../../apps/server/src/store/db.js', '@xtalk/server', '@xtalk/payments']) {
      expect(
        await problems(
          'packages/service-base/src/lint-probe.ts',
          `import { openDb } from '${source}';\nexport const probe = openDb;\n`,
        ),
        source,
      ).toEqual([
        expect.stringMatching(/no-restricted-imports: .*sits below the server and the payment package/),
      ]);
    }
    expect(
      await problems(
        'packages/service-base/src/lint-probe.ts',
        "import { ApiPath } from '@xtalk/protocol';\nexport const probe = ApiPath;\n",
      ),
    ).toEqual([]);
  });
});

describe('type-aware rules', () => {
  it('floating and misused promises are errors in the sources of the server, the web app and the protocol', async () => {
    // the probes' instance switches them off: read the repository's own config
    const own = new ESLint({ cwd: root });
    for (const file of [
      'apps/server/src/app.ts',
      'apps/web/src/main.tsx',
      'packages/protocol/src/index.ts',
    ]) {
      const config = (await own.calculateConfigForFile(file)) as Linter.Config;
      expect(config.rules?.['@typescript-eslint/no-floating-promises'], file).toEqual([2]);
      expect(config.rules?.['@typescript-eslint/no-misused-promises'], file).toEqual([2]);
    }
  });
});
