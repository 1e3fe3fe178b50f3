import { ArgTypes, Description, Heading, Markdown, Primary, Stories, Title } from '@storybook/addon-docs/blocks';
import type { ReactElement } from 'react';
import type { HookDocgen } from '../../.storybook/hookDocgen.js';

type Hook = ((...args: never[]) => unknown) & { __docgenInfo?: HookDocgen };
type Members = NonNullable<HookDocgen['returns']>['props'];

/**
 * The Docs page of a hook's stories: the hook's TSDoc, the first story live,
 * a table of its options and one of what it returns, then the other stories
 * (if any). The tables and the description come from the hook's own types
 * and TSDoc, read by `.storybook/hookDocgen.ts`, never from the demo
 * component the stories render.
 *
 * @example
 * const meta = {
 *   title: 'Hooks/useGhostText',
 *   render: () => <GhostTextDemo />,
 *   parameters: { docs: { page: hookDocsPage(useGhostText) } },
 * } satisfies Meta;
 */
export function hookDocsPage(hook: Hook): () => ReactElement {
  const docgen = hook.__docgenInfo;
  const returns = docgen?.returns;
  // The ArgTypes block tables the docgen `props` of what it is given: the result's members get a stand-in of their own.
  const result =
    returns && Object.keys(returns.props).length
      ? Object.assign(() => null, { __docgenInfo: { description: '', displayName: returns.type, props: unmarked(returns.props) } })
      : undefined;
  return function HookDocsPage() {
    if (!docgen) {
      return (
        <Markdown>{`No docgen for \`${hook.name}\`: \`.storybook/hookDocgen.ts\` documents the exported \`use*\` functions of \`packages/*/src\`.`}</Markdown>
      );
    }
    return (
      <>
        <Title />
        <Description of={hook} />
        <Primary />
        <Heading>Options</Heading>
        {docgen.props ? <ArgTypes of={hook} /> : <Markdown>{`\`${docgen.displayName}()\` takes no options.`}</Markdown>}
        <Also types={docgen.propsAlso} />
        <Heading>Returns</Heading>
        {returns ? <Markdown>{`\`${returns.type}\``}</Markdown> : null}
        {result ? <ArgTypes of={result} /> : null}
        <Also types={returns?.also} />
        <Stories includePrimary={false} />
      </>
    );
  };
}

/**
 * A result's members with no "required" mark: a returned value has every
 * member its type says, so the mark tells a reader nothing there (the
 * options table keeps it).
 */
function unmarked(props: Members): Members {
  return Object.fromEntries(Object.entries(props).map(([name, descriptor]) => [name, { ...descriptor, required: false }]));
}

/** Types whose members docgen could not list (React's, the DOM's), named so the table does not pass for all there is. */
function Also({ types }: { types: readonly string[] | undefined }) {
  return types?.length ? <Markdown>{`Also every member of ${types.map((type) => `\`${type}\``).join(', ')}.`}</Markdown> : null;
}
