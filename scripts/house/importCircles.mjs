// The import graph of the packages' source files and its circles (strongly
// connected components of more than one file, or a file importing itself),
// once over every import and once over the imports that run (type-only
// imports and re-exports left out).

/** Each import or re-export of `file` with a literal specifier: { to, typeOnly }. */
function importsOf(tree, file) {
  const edges = [];
  const add = (specifier, typeOnly) => {
    const to = tree.resolve(file, specifier);
    if (to) edges.push({ to, typeOnly });
  };
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    if (node.type === 'ImportExpression' && node.source?.type === 'Literal') add(node.source.value, false);
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  for (const statement of tree.ast(file).body) {
    const source = statement.source?.value;
    if (statement.type === 'ImportDeclaration') {
      const specifiers = statement.specifiers ?? [];
      const typeOnly =
        statement.importKind === 'type' ||
        (specifiers.length > 0 && specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'));
      add(source, typeOnly);
    } else if (statement.type === 'ExportNamedDeclaration' && source) {
      const specifiers = statement.specifiers ?? [];
      add(source, statement.exportKind === 'type' || (specifiers.length > 0 && specifiers.every((s) => s.exportKind === 'type')));
    } else if (statement.type === 'ExportAllDeclaration') {
      add(source, statement.exportKind === 'type');
    } else {
      visit(statement);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components of `graph` (file -> Set of files). */
function components(graph) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (file) => {
    order.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!order.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file), order.get(to)));
      }
    }
    if (low.get(file) === order.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)?.has(file)) found.push(component.toSorted());
    }
  };
  for (const file of graph.keys()) if (!order.has(file)) connect(file);
  return found;
}

/** `{ files, imports, circles: { all, runtime } }`: each circle is its files, sorted. */
export function importCircles(tree) {
  const all = new Map();
  const runtime = new Map();
  let imports = 0;
  for (const file of tree.files) {
    all.set(file, new Set());
    runtime.set(file, new Set());
    for (const { to, typeOnly } of importsOf(tree, file)) {
      imports += 1;
      all.get(file).add(to);
      if (!typeOnly) runtime.get(file).add(to);
    }
  }
  return { files: tree.files.length, imports, circles: { all: components(all), runtime: components(runtime) } };
}
