// The web app's imports read the same from every file (epic-stack's `#app/...`): an import that leaves
// its folder (`app`, `lib`, `components`, one feature, ...) names its target from the top, `#web/lib/i18n`,
// never by climbing out (`../../../lib/i18n`); an import inside the folder stays relative, so a folder
// that moves keeps its own imports. `#web/*` is the `imports` field of apps/web/package.json.
import { dirname, relative, resolve, sep } from 'node:path';

/** The folder a path under src belongs to: `features/<name>` for a feature, else its first folder. */
function folderOf(pathInSrc) {
  const parts = pathInSrc.split('/');
  if (parts.length === 1) return '';
  return parts[0] === 'features' ? parts.slice(0, 2).join('/') : parts[0];
}

const toPosix = (path) => path.split(sep).join('/');

/** @type {import('eslint').Rule.RuleModule} */
export const webAliasesRule = {
  meta: {
    type: 'suggestion',
    fixable: 'code',
    docs: {
      description: 'imports across folders of the web app go through #web/..., inside one stay relative',
    },
    schema: [
      {
        type: 'object',
        properties: { src: { type: 'string' }, alias: { type: 'string' } },
        required: ['src', 'alias'],
        additionalProperties: false,
      },
    ],
    messages: {
      climbs: "'{{source}}' leaves {{folder}}: import it as '{{fixed}}'.",
      aliased: "'{{source}}' is inside {{folder}}: import it relatively, as '{{fixed}}'.",
    },
  },
  create(context) {
    const { src, alias } = context.options[0];
    const file = toPosix(relative(src, context.filename));
    if (file.startsWith('..')) return {};
    const folder = folderOf(file);
    const here = dirname(context.filename);
    const check = (literal) => {
      if (literal?.type !== 'Literal' || typeof literal.value !== 'string') return;
      const source = literal.value;
      let target;
      if (source.startsWith('../')) target = toPosix(relative(src, resolve(here, source)));
      else if (source.startsWith(`${alias}/`)) target = source.slice(alias.length + 1);
      else return;
      if (target.startsWith('..')) return;
      const inside = folderOf(target) === folder;
      if (source.startsWith('../') && inside) return;
      if (!source.startsWith('../') && !inside) return;
      let fixed = `${alias}/${target}`;
      if (inside) {
        fixed = toPosix(relative(here, resolve(src, target)));
        if (!fixed.startsWith('.')) fixed = `./${fixed}`;
      }
      const quote = context.sourceCode.getText(literal)[0];
      context.report({
        node: literal,
        messageId: inside ? 'aliased' : 'climbs',
        data: { source, fixed, folder: folder || 'src' },
        fix: (fixer) => fixer.replaceText(literal, `${quote}${fixed}${quote}`),
      });
    };
    const isMockCall = (callee) =>
      callee.type === 'MemberExpression' &&
      callee.object.type === 'Identifier' &&
      callee.object.name === 'vi' &&
      callee.property.type === 'Identifier' &&
      ['mock', 'doMock', 'unmock', 'importActual'].includes(callee.property.name);
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => {
        if (isMockCall(node.callee)) check(node.arguments[0]);
      },
    };
  },
};
