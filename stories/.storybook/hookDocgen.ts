import { type Handler, type PropDescriptor, type ResolverFunction, ERROR_CODES, builtinHandlers, parse, utils } from 'react-docgen';
import type { Plugin } from 'vite';
import { membersOf, sourceOf } from './typeMembers.js';
import { PACKAGES, workspaceImporter } from './workspaceImporter.js';

/** What a hook's `__docgenInfo` holds besides react-docgen's `description` and `displayName`. */
export interface HookDocgen {
  description: string;
  displayName: string;
  /** The members of the hook's first parameter's type: its options. Absent when it takes none. */
  props?: Record<string, PropDescriptor>;
  /** Types the options also take the members of, which could not be read (React's, the DOM's). */
  propsAlso?: string[];
  /** The hook's return type as written, its members (methods included), and the types it could not read. */
  returns?: { type: string; props: Record<string, PropDescriptor>; also: string[] };
}

const HOOK_NAME = /^use[A-Z]/;

/**
 * Storybook's docgen documents components only; this plugin documents the
 * packages' hooks the same way, so a hook's Docs page can show its TSDoc and
 * its options and results as tables (`stories/src/support/hookDocsPage.tsx`).
 * Every `export function useX` in a package's `src` gets
 * `useX.__docgenInfo` (a {@link HookDocgen}) appended to its module, in
 * Storybook's build only. Types are read with react-docgen from the sources,
 * following `extends` and imports across files and packages.
 */
export function hookDocgen(): Plugin {
  return {
    name: 'inkling:hook-docgen',
    enforce: 'pre',
    transform(code, id) {
      const filename = id.split('?')[0] ?? id;
      if (!filename.startsWith(PACKAGES) || !/\/src\/.*\.ts$/.test(filename) || !/^export function use[A-Z]/m.test(code)) return undefined;
      let hooks: HookDocgen[];
      try {
        hooks = parse(code, {
          filename,
          resolver: exportedHooks,
          importer: workspaceImporter(),
          handlers: [builtinHandlers.componentDocblockHandler, builtinHandlers.displayNameHandler, signatureHandler],
        }) as HookDocgen[];
      } catch (error) {
        if ((error as { code?: string }).code === ERROR_CODES.MISSING_DEFINITION) return undefined;
        throw error;
      }
      // Appended after the last line: the lines above keep their places, so no source map is needed.
      const assignments = hooks.map((hook) => `\n;${hook.displayName}.__docgenInfo = ${JSON.stringify(hook)};`);
      return { code: code + assignments.join(''), map: null };
    },
  };
}

/** The file's exported function declarations named like hooks. */
const exportedHooks: ResolverFunction = (file) =>
  file.path.get('body').flatMap((statement) => {
    if (!statement.isExportNamedDeclaration()) return [];
    const declaration = statement.get('declaration');
    return declaration.isFunctionDeclaration() && HOOK_NAME.test(declaration.node.id?.name ?? '') ? [declaration] : [];
  });

/** The options (first parameter) as `props`, the return type as `returns`. */
const signatureHandler: Handler = (documentation, definition) => {
  if (!definition.isFunctionDeclaration()) return;
  const [first] = definition.get('params');
  // `options: UseChatOptions = {}` carries its type on the left of the default.
  const options = first?.isAssignmentPattern() ? first.get('left') : first;
  const optionsType = options ? utils.getTypeAnnotation(options) : null;
  if (optionsType) {
    const { members, also } = membersOf(optionsType);
    for (const [member, descriptor] of Object.entries(members)) Object.assign(documentation.getPropDescriptor(member), descriptor);
    if (also.length) documentation.set('propsAlso', also);
  }
  const returnType = definition.get('returnType');
  if (returnType.isTSTypeAnnotation()) {
    const type = returnType.get('typeAnnotation');
    const { members, also } = membersOf(type);
    documentation.set('returns', { type: sourceOf(type), props: members, also });
  }
};
