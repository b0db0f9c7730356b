// A module's tables are touched only by that module (docs/decisions/0103-lint-boundaries.md): the SQL in a
// server file under apps/server/src/<module>/ may name only tables that module owns or tables nobody owns.
// Templated SQL is read with its interpolations: a name held in a constant of the file is read as the
// table it names, and a fragment imported from another module is refused (decision 0177), so a join
// with another module's table cannot hide behind `${...}`.

/**
 * Which module owns each table. A table created in apps/server/src/store/migrations.ts or in the payment
 * package's schema must be listed here (eslint/lint-boundaries.test.ts fails until it is), so a new table is
 * guarded from its first migration.
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
  sign_in_sessions: 'accounts',
  credit_accounts: 'credits',
  credit_txns: 'credits',
  erased_ledgers: 'credits',
  // the payment service's tables belong to its package (packages/payments/src/schema.ts), which the
  // server's migrations 3 and 4 run
  credit_orders: '@xtalk/payments',
  credit_withdraw_requests: '@xtalk/payments',
  store_purchases: '@xtalk/payments',
  payment_txns: '@xtalk/payments',
  payment_ledger: '@xtalk/payments',
  payment_schema: '@xtalk/payments',
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
      fragment:
        "SQL built from '{{name}}' of the {{owner}} module: statements in {{module}} name only its own tables; ask {{owner}} through what it exports instead.",
    },
  },
  create(context) {
    const owners = context.options[0]?.owners ?? {};
    const module = moduleOf(context.filename);
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
        const parts = [];
        node.quasis.forEach((quasi, index) => {
          parts.push(quasi.value.cooked ?? '');
          const expression = node.expressions[index];
          if (expression) parts.push(interpolated(context, expression) ?? ' ');
        });
        const text = parts.join('');
        if (!STATEMENT.test(text)) return;
        check(node, text);
        for (const expression of node.expressions) {
          const foreign = foreignImport(context, expression, module);
          if (foreign)
            context.report({ node: expression, messageId: 'fragment', data: { ...foreign, module } });
        }
      },
    };
  },
};

/** The module of a file: the folder under apps/server/src it sits in, or the payment package. */
function moduleOf(filename) {
  const path = filename.replaceAll('\\', '/');
  if (/packages\/payments\/src\//.test(path)) return '@xtalk/payments';
  return /apps\/server\/src\/([^/]+)\//.exec(path)?.[1];
}

/** The variable an identifier names, looked up from where it is used. */
function variableOf(context, identifier) {
  let scope = context.sourceCode.getScope(identifier);
  for (; scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable;
  }
  return undefined;
}

/** The text an interpolation stands for when the file holds it as a constant string; undefined otherwise. */
function interpolated(context, expression) {
  if (expression.type === 'Literal' && typeof expression.value === 'string') return expression.value;
  if (expression.type === 'TemplateLiteral' && expression.expressions.length === 0) {
    return expression.quasis[0]?.value.cooked ?? undefined;
  }
  if (expression.type !== 'Identifier') return undefined;
  const definition = variableOf(context, expression)?.defs[0];
  const declaration = definition?.parent;
  if (definition?.type !== 'Variable' || declaration?.kind !== 'const' || !definition.node.init)
    return undefined;
  return interpolated(context, definition.node.init);
}

/** The imported name an interpolation calls or reads, when it comes from another server module. */
function foreignImport(context, expression, module) {
  let root = expression;
  while (root.type === 'CallExpression' || root.type === 'MemberExpression') {
    root = root.type === 'CallExpression' ? root.callee : root.object;
  }
  if (root.type !== 'Identifier') return undefined;
  const definition = variableOf(context, root)?.defs[0];
  if (definition?.type !== 'ImportBinding') return undefined;
  const source = definition.parent.source.value;
  if (typeof source !== 'string' || !source.startsWith('.')) return undefined;
  const owner = moduleOf(new URL(source, `file://${context.filename.replaceAll('\\', '/')}`).pathname);
  if (!owner || owner === module) return undefined;
  return { name: root.name, owner };
}
