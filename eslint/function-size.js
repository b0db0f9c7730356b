// Functions a reader can hold at once (docs/decisions/0193-sizes-by-design.md). Like core
// `max-lines-per-function`, but the callbacks a test file hands to describe/it/test are not measured:
// they are lists of cases and steps, not functions anyone reads as one. Every function inside them is
// measured as usual, and so are the hooks (beforeEach and the like), which are setup code.

/** The test-runner calls whose callbacks hold lists; `it.each(...)`, `describe.skip`, ... count too. */
const LIST_CALLS = new Set(['describe', 'suite', 'it', 'test']);

const FUNCTIONS = ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'];

/** @type {import('eslint').Rule.RuleModule} */
export const functionSizeRule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'functions stay short enough to read at once; describe/it callbacks are lists' },
    schema: [
      {
        type: 'object',
        properties: { max: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
    ],
    messages: {
      long: '{{name}} has too many lines ({{lines}}). Maximum allowed is {{max}}.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 100;
    const check = (node) => {
      if (isListCallback(node)) return;
      // a method counts from its name, as the core rule does
      const owner = isMethodValue(node) ? node.parent : node;
      const lines = owner.loc.end.line - owner.loc.start.line + 1;
      if (lines <= max) return;
      context.report({ node: owner, messageId: 'long', data: { name: nameOf(node), lines, max } });
    };
    return Object.fromEntries(FUNCTIONS.map((type) => [type, check]));
  },
};

/** True when `node` is an argument of describe/it/test or one of their variants. */
function isListCallback(node) {
  const call = node.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.includes(node)) return false;
  let callee = call.callee;
  // it.each(table)(name, fn), describe.skip(name, fn), test.concurrent.each(table)(name, fn)
  while (callee.type === 'CallExpression' || callee.type === 'MemberExpression') {
    callee = callee.type === 'CallExpression' ? callee.callee : callee.object;
  }
  return callee.type === 'Identifier' && LIST_CALLS.has(callee.name);
}

function isMethodValue(node) {
  const parent = node.parent;
  return (
    parent?.type === 'MethodDefinition' ||
    (parent?.type === 'Property' && (parent.method || parent.kind === 'get' || parent.kind === 'set'))
  );
}

/** "Function 'name'", "Async arrow function 'name'", or "Arrow function" when it has none. */
function nameOf(node) {
  const kind = node.type === 'ArrowFunctionExpression' ? 'arrow function' : 'function';
  const label = node.async ? `Async ${kind}` : kind[0].toUpperCase() + kind.slice(1);
  const parent = node.parent;
  const named = parent?.type === 'VariableDeclarator' ? parent.id : undefined;
  const keyed = parent?.type === 'Property' || parent?.type === 'MethodDefinition' ? parent.key : undefined;
  const id = node.id ?? named ?? keyed;
  return id?.type === 'Identifier' ? `${label} '${id.name}'` : label;
}
