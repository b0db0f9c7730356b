// A module's tables are touched only by that module (docs/decisions/0103-lint-boundaries.md): the SQL in a
// server file under apps/server/src/<module>/ may name only tables that module owns or tables nobody owns.

/**
 * Which module owns each table. A table created in apps/server/src/store/migrations.ts must be listed here
 * (eslint/lint-boundaries.test.ts fails until it is), so a new table is guarded from its first migration.
 */
export const serverTableOwners = {
  users: 'accounts',
  botcheck_used: 'accounts',
  auth_flows: 'accounts',
  auth_codes: 'accounts',
  rooms: 'rooms',
  room_members: 'rooms',
  sessions: 'rooms',
  messages: 'rooms',
  room_changes: 'rooms',
  player_links: 'accounts',
  email_accounts: 'accounts',
  email_tokens: 'accounts',
  wallet_nonces: 'accounts',
  auth_counters: 'accounts',
  credit_accounts: 'credits',
  credit_txns: 'credits',
  credit_orders: 'payments',
  credit_withdraw_requests: 'payments',
  store_purchases: 'payments',
  payment_txns: 'payments',
  schema_migrations: 'store',
  room_glossaries: 'glossary',
};

/** A string is SQL when it starts like a statement; the table names follow from/into/update/join. */
const STATEMENT = /^\s*(select|insert|update|delete|with|alter|create)\b/i;
const TABLE = /\b(?:from|into|update|join)\s+([a-z_][a-z0-9_]*)/gi;

/** @type {import('eslint').Rule.RuleModule} */
export const tableOwnerRule = {
  meta: {
    type: 'problem',
    docs: { description: "a server module's SQL names only its own tables" },
    schema: [{ type: 'object', properties: { owners: { type: 'object' } }, additionalProperties: false }],
    messages: {
      foreign:
        "Table '{{table}}' belongs to the {{owner}} module; {{module}} goes through what {{owner}} exports instead.",
    },
  },
  create(context) {
    const owners = context.options[0]?.owners ?? {};
    const module = /apps\/server\/src\/([^/]+)\//.exec(context.filename.replaceAll('\\', '/'))?.[1];
    if (!module) return {};
    const check = (node, text) => {
      if (!STATEMENT.test(text)) return;
      for (const [, name] of text.matchAll(TABLE)) {
        const table = name.toLowerCase();
        const owner = owners[table];
        if (owner && owner !== module) {
          context.report({ node, messageId: 'foreign', data: { table, owner, module } });
        }
      }
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        check(node, node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' '));
      },
    };
  },
};
