// The names each package entry exports (from `package.json` `exports`, source
// condition), followed through `export *` and `export { x } from`, each a
// value (it exists at run time) or a type.

const VALUE_DECLARATIONS = new Set([
  'FunctionDeclaration',
  'ClassDeclaration',
  'VariableDeclaration',
  'TSEnumDeclaration',
  'TSModuleDeclaration',
]);

/** The names a declaration statement declares. */
function declared(declaration) {
  if (declaration.type === 'VariableDeclaration') {
    return declaration.declarations.flatMap((d) => (d.id.type === 'Identifier' ? [d.id.name] : []));
  }
  return declaration.id?.name ? [declaration.id.name] : [];
}

const cache = new WeakMap();

/** name -> 'value' | 'type' for everything `file` exports, once per file (a file met again while it is read adds nothing). */
function exportsOf(tree, file) {
  if (!cache.has(tree)) cache.set(tree, new Map());
  const known = cache.get(tree);
  if (!file) return new Map();
  if (known.has(file)) return known.get(file);
  const names = new Map();
  known.set(file, names);
  const body = tree.ast(file).body;
  // What the file's own names are: declared here, or imported from elsewhere.
  const local = new Map();
  for (const statement of body) {
    const declaration = statement.type.startsWith('Export') ? statement.declaration : statement;
    if (!declaration || declaration.type === 'ImportDeclaration' || !declaration.type) continue;
    const kind = VALUE_DECLARATIONS.has(declaration.type) ? 'value' : 'type';
    for (const name of declared(declaration)) if (local.get(name) !== 'value') local.set(name, kind);
  }
  const kindOfImport = (statement, specifier) => {
    if (statement.importKind === 'type' || specifier.importKind === 'type') return 'type';
    if (specifier.type !== 'ImportSpecifier') return 'value';
    return exportsOf(tree, tree.resolve(file, statement.source.value)).get(specifier.imported.name) ?? 'value';
  };
  for (const statement of body) {
    if (statement.type === 'ImportDeclaration') {
      for (const specifier of statement.specifiers ?? []) local.set(specifier.local.name, kindOfImport(statement, specifier));
    }
  }
  for (const statement of body) {
    if (statement.type === 'ExportAllDeclaration') {
      if (statement.exported) names.set(statement.exported.name, statement.exportKind === 'type' ? 'type' : 'value');
      else for (const [name, kind] of exportsOf(tree, tree.resolve(file, statement.source.value))) names.set(name, kind);
    } else if (statement.type === 'ExportNamedDeclaration') {
      if (statement.declaration) {
        const kind = VALUE_DECLARATIONS.has(statement.declaration.type) ? 'value' : 'type';
        for (const name of declared(statement.declaration)) names.set(name, kind);
      }
      const from = statement.source ? exportsOf(tree, tree.resolve(file, statement.source.value)) : local;
      for (const specifier of statement.specifiers ?? []) {
        const typeOnly = statement.exportKind === 'type' || specifier.exportKind === 'type';
        const name = specifier.local.name ?? specifier.local.value;
        names.set(specifier.exported.name ?? specifier.exported.value, typeOnly ? 'type' : (from.get(name) ?? 'value'));
      }
    } else if (statement.type === 'ExportDefaultDeclaration') {
      names.set('default', 'value');
    }
  }
  return names;
}

/** `[{ entry: '@inkling/react/core', file, values, types, valueNames }]` for every package entry. */
export function entryExports(tree) {
  const rows = [];
  for (const [name, { entries }] of tree.packages) {
    for (const [subpath, file] of entries) {
      const names = exportsOf(tree, file);
      const valueNames = [...names]
        .filter(([, kind]) => kind === 'value')
        .map(([n]) => n)
        .toSorted();
      rows.push({
        entry: subpath === '.' ? name : `${name}${subpath.slice(1)}`,
        file,
        values: valueNames.length,
        types: names.size - valueNames.length,
        valueNames,
      });
    }
  }
  return rows.toSorted((a, b) => a.entry.localeCompare(b.entry));
}
