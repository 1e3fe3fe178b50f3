// The largest source files (lines) and the functions longer than a limit
// (lines from the line of `function`/the arrow's start to its closing brace).
import { lineAt } from './sourceTree.mjs';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Every function of `file`, named after what holds it: { name, line, lines }. */
function functionsOf(tree, file) {
  const text = tree.text(file);
  const found = [];
  const visit = (node, name) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, name));
    let inner = name;
    if (node.type === 'VariableDeclarator' || node.type === 'PropertyDefinition' || node.type === 'Property')
      inner = node.id?.name ?? node.key?.name ?? name;
    if (node.type === 'MethodDefinition') inner = node.key?.name ?? name;
    if (FUNCTIONS.has(node.type)) {
      const own = node.id?.name ?? name ?? '(anonymous)';
      const line = lineAt(text, node.start);
      found.push({ name: own, line, lines: lineAt(text, node.end) - line + 1 });
      inner = undefined;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'parent' && value && typeof value === 'object') visit(value, inner);
  };
  visit(tree.ast(file).body, undefined);
  return found;
}

/** `{ files: [{ file, lines }] (largest first, `top` of them), functions: [{ file, name, line, lines }] over `over` lines }`. */
export function largest(tree, { top = 15, over = 60 } = {}) {
  const files = tree.files.map((file) => ({ file, lines: tree.text(file).split('\n').length - (tree.text(file).endsWith('\n') ? 1 : 0) }));
  const functions = tree.files.flatMap((file) =>
    functionsOf(tree, file)
      .filter((fn) => fn.lines > over)
      .map((fn) => ({ file, ...fn })),
  );
  return {
    files: files.toSorted((a, b) => b.lines - a.lines).slice(0, top),
    over300: files.filter((f) => f.lines > 300).length,
    functions: functions.toSorted((a, b) => b.lines - a.lines),
  };
}
