const FENCE = '```';

/**
 * A component's or hook's TSDoc (as docgen hands it over: the comment's text
 * without its `*`s) as Markdown for its Docs page. Storybook renders a
 * description as Markdown, but in TSDoc an `@example`'s body is code: read
 * as Markdown, its JSX turned into HTML (tags gone) and its indentation
 * collapsed. Here each `@example` becomes an "Example" caption (with the
 * title written after the tag, if any) over a `tsx` code block; a body that
 * brings its own fence keeps it. Other text passes through.
 *
 * @example
 * tsdocMarkdown('Ghost text.\n\n@example\n<GhostTextarea rows={6} />');
 * // 'Ghost text.\n\n**Example**\n\n```tsx\n<GhostTextarea rows={6} />\n```'
 */
export function tsdocMarkdown(comment: string): string {
  const [intro = '', ...tagged] = comment.split(/^(?=@\w)/m);
  return [
    intro.trimEnd(),
    ...tagged.map((block) => (block.startsWith('@example') ? exampleMarkdown(block.slice('@example'.length)) : block.trimEnd())),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function exampleMarkdown(block: string): string {
  const lineEnd = block.indexOf('\n');
  const title = (lineEnd === -1 ? block : block.slice(0, lineEnd)).trim();
  const body = lineEnd === -1 ? '' : block.slice(lineEnd + 1).replace(/^\n+|\s+$/g, '');
  const caption = title ? `**Example: ${title}**` : '**Example**';
  return `${caption}\n\n${body.trimStart().startsWith(FENCE) ? body : `${FENCE}tsx\n${body}\n${FENCE}`}`;
}
