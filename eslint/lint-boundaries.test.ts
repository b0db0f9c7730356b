import { readFileSync } from 'node:fs';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { eslint, problems, root } from './lint-probes.js';
import { serverModuleDependencies, serverModuleFolders } from './server-modules.js';

// The server's boundaries (the module table and the faces) and the packages'.
describe('server boundaries', () => {
  it('an upward import fails with the row of the module table; a downward one passes', async () => {
    // accounts sits below rooms: it reaches rooms through the port it declares, never by import
    expect(
      await problems(
        'apps/server/src/accounts/links/lint-probe.ts',
        "import { moveRoomData } from '../../rooms/index.js';\nexport const probe = moveRoomData;\n",
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
          "import { createConnection } from '../gateway/index.js';\nexport const probe = createConnection;\n",
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
        "import { sameText } from '../accounts/index.js';\nimport type { Clock } from '../clock.js';\nexport const probe: [typeof sameText, Clock | undefined] = [sameText, undefined];\n",
      ),
    ).toEqual([]);
    // tests compose the whole app and may import across, through the faces
    expect(
      await problems(
        'apps/server/src/accounts/lint-probe.test.ts',
        "import { moveRoomData } from '../rooms/index.js';\nexport const probe = moveRoomData;\n",
      ),
    ).toEqual([]);
  });

  it('from another module only its index.js may be imported; a test may also reach its testing/', async () => {
    // gateway may import rooms, but not a file inside it
    const deep =
      "import { createRoomsRepo } from '../rooms/rooms-repo.js';\nexport const probe = createRoomsRepo;\n";
    expect(await problems('apps/server/src/gateway/lint-probe.ts', deep)).toEqual([
      expect.stringMatching(
        /no-restricted-paths: .* rooms: from another module only its index.js may be imported/,
      ),
    ]);
    expect(await problems('apps/server/src/gateway/lint-probe.test.ts', deep)).toEqual([
      expect.stringMatching(
        /no-restricted-paths: .* rooms: a test imports another module through its index.js/,
      ),
    ]);
    const face =
      "import { createRoomsRepo } from '../rooms/index.js';\nexport const probe = createRoomsRepo;\n";
    expect(await problems('apps/server/src/gateway/lint-probe.ts', face)).toEqual([]);
    const helper =
      "import { MemoryMeter } from '../translation/testing/index.js';\nexport const probe = MemoryMeter;\n";
    expect(await problems('apps/server/src/gateway/lint-probe.test.ts', helper)).toEqual([]);
    // the composition reads a module's plugin.js and its face, nothing deeper
    const plugin = "import { roomsPlugin } from './rooms/plugin.js';\nexport const probe = roomsPlugin;\n";
    expect(await problems('apps/server/src/app.ts', plugin)).toEqual([]);
    expect(
      await problems(
        'apps/server/src/app.ts',
        "import { createRoomsRepo } from './rooms/rooms-repo.js';\nexport const probe = createRoomsRepo;\n",
      ),
    ).toEqual([
      expect.stringMatching(/no-restricted-paths: .* rooms: the composition imports a module's plugin.js/),
    ]);
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
      { zones: { target: string | string[] }[] },
    ];
    // the table's zones, one per row (the faces' zones target several folders each)
    const rowZones = options.zones.filter((zone) => typeof zone.target === 'string');
    expect(rowZones.map((zone) => zone.target).sort()).toEqual(
      Object.keys(rows)
        .map((module) => `./apps/server/src/${module}`)
        .sort(),
    );
  });

  it('production code never imports test helpers or benchmark code; tests may', async () => {
    const code = [
      "import { fixture } from '../voice/testing/clips.js';",
      "import { MemoryMeter } from '../translation/testing/index.js';",
      "import { startServer } from '../testing/harness.js';",
      "import { summarise } from '../../../../bench/lib/stats.js';",
      'export const probe = [fixture, MemoryMeter, startServer, summarise];',
    ].join('\n');
    // voice may import translation, so only the test-helper rule speaks here
    const found = (await problems('apps/server/src/voice/lint-probe.ts', code)).filter((problem) =>
      problem.startsWith('no-restricted-imports'),
    );
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
      "import { sameText as userSelect } from '../accounts/index.js';",
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
        "import { startServer } from '../../../apps/server/src/testing/harness.js';\nexport const probe = startServer;\n",
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
