import { type NodePath, type PropDescriptor, type babelTypes, utils } from 'react-docgen';

/**
 * The members of an interface or object type, its bases' included (through
 * `extends`, intersections, aliases, imports, `Omit`, `Pick`, `Partial`,
 * `Readonly`): each one's type as written in the source, whether it is
 * required, its TSDoc, and the default its TSDoc ends with ("Default
 * `120`.", moved to the table's Default column). `also`: the types whose
 * members it could not read (from outside the workspace, or a kind of type
 * it does not walk).
 */
export function membersOf(type: NodePath): { members: Record<string, PropDescriptor>; also: string[] } {
  const members: Record<string, PropDescriptor> = {};
  const also: string[] = [];
  const visit = (member: Member, optional: boolean) => {
    const name = utils.getPropertyName(member);
    if (!name) return;
    const { description, defaultValue } = splitDefault(utils.docblock.getDocblock(member) ?? '');
    // Bases come first; a member the type declares again replaces theirs (keeping its row's place).
    members[name] = {
      required: !optional && !member.node.optional,
      tsType: { name: member.isTSMethodSignature() ? methodType(member) : typeOfProperty(member) },
      description,
      ...(defaultValue === undefined ? {} : { defaultValue: { value: defaultValue, computed: false } }),
    };
  };
  walkMembers(type, { keep: () => true, optional: false }, visit, (unread) => also.push(unread));
  return { members, also };
}

type Member = NodePath<babelTypes.TSPropertySignature | babelTypes.TSMethodSignature>;
interface Walk {
  /** Whether a member of this name belongs (`Omit` and `Pick` narrow it). */
  keep: (name: string) => boolean;
  /** Under `Partial`: every member optional. */
  optional: boolean;
}

const UTILITIES: Record<string, ((walk: Walk, keys: Set<string> | undefined) => Walk) | undefined> = {
  Omit: (walk, keys) => ({ ...walk, keep: (name) => walk.keep(name) && !keys?.has(name) }),
  Pick: (walk, keys) => ({ ...walk, keep: (name) => walk.keep(name) && (keys?.has(name) ?? true) }),
  Partial: (walk) => ({ ...walk, optional: true }),
  Readonly: (walk) => walk,
};

function walkMembers(type: NodePath, walk: Walk, visit: (member: Member, optional: boolean) => void, unread: (what: string) => void): void {
  if (type.isTSTypeLiteral() || type.isTSInterfaceBody()) {
    for (const member of (type.isTSTypeLiteral() ? type.get('members') : type.get('body')) as NodePath[]) {
      if (!member.isTSPropertySignature() && !member.isTSMethodSignature()) continue;
      const name = utils.getPropertyName(member);
      if (name && walk.keep(name)) visit(member, walk.optional);
    }
  } else if (type.isTSInterfaceDeclaration()) {
    const bases = type.get('extends');
    for (const base of Array.isArray(bases) ? bases : []) walkMembers(base, walk, visit, unread);
    walkMembers(type.get('body'), walk, visit, unread);
  } else if (type.isTSIntersectionType()) {
    for (const part of type.get('types')) walkMembers(part, walk, visit, unread);
  } else if (type.isTSParenthesizedType()) {
    walkMembers(type.get('typeAnnotation'), walk, visit, unread);
  } else if (type.isTSTypeReference() || type.isTSExpressionWithTypeArguments()) {
    const utility = UTILITIES[sourceOf(type.isTSTypeReference() ? type.get('typeName') : type.get('expression'))];
    const typeArguments = type.get('typeParameters') as NodePath;
    const [target, keys] = typeArguments.isTSTypeParameterInstantiation() ? typeArguments.get('params') : [];
    const resolved = utility ? undefined : utils.resolveGenericTypeAnnotation(type);
    if (utility && target) walkMembers(target, utility(walk, keys && literalKeys(keys)), visit, unread);
    else if (resolved) walkMembers(resolved, walk, visit, unread);
    else unread(sourceOf(type));
  } else if (!type.node.type.endsWith('Keyword')) {
    // `string`, `void`... have no members to list; anything else is a type this walk does not know.
    unread(sourceOf(type));
  }
}

/** `'a' | 'b'` as its names; undefined for keys it cannot list (`keyof X`). */
function literalKeys(type: NodePath): Set<string> | undefined {
  const parts = type.isTSUnionType() ? type.get('types') : [type];
  const names = parts.map((part) =>
    part.isTSLiteralType() && part.node.literal.type === 'StringLiteral' ? part.node.literal.value : undefined,
  );
  return names.every((name) => name !== undefined) ? new Set(names as string[]) : undefined;
}

function typeOfProperty(member: NodePath): string {
  const annotation = member.get('typeAnnotation') as NodePath;
  return annotation.isTSTypeAnnotation() ? spelledOut(annotation.get('typeAnnotation')) : 'unknown';
}

/** A type as written, except a name for a union of literals (`GhostTextStatus`), which a reader wants spelled out. */
function spelledOut(type: NodePath): string {
  const resolved = type.isTSTypeReference() && !type.node.typeParameters ? utils.resolveGenericTypeAnnotation(type) : undefined;
  const literals = resolved?.isTSUnionType() && resolved.get('types').every((part) => part.isTSLiteralType());
  return sourceOf(literals && resolved ? resolved : type);
}

/** `accept(): string` as `() => string`. */
function methodType(member: NodePath): string {
  const parameters = (member.get('parameters') as NodePath[]).map(sourceOf);
  const returns = member.get('typeAnnotation') as NodePath;
  return `(${parameters.join(', ')}) => ${returns.isTSTypeAnnotation() ? sourceOf(returns.get('typeAnnotation')) : 'void'}`;
}

/** A node's text in its own file (a member may come from another file than the hook). */
export function sourceOf(path: NodePath): string {
  const { start, end } = path.node;
  return start == null || end == null ? 'unknown' : path.hub.file.code.slice(start, end);
}

const DEFAULT_SENTENCE = /\s*Default:? `([^`]+)`\.?$/;

function splitDefault(text: string): { description: string; defaultValue?: string } {
  const match = DEFAULT_SENTENCE.exec(text);
  return match ? { description: text.slice(0, match.index), defaultValue: match[1] } : { description: text };
}
