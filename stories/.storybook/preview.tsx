import type { Preview } from '@storybook/react-vite';
import '@inkling/react/styles.css';
import './preview.css';
import { DEFAULT_MODEL, ENGINE_TOOLBAR } from '../src/support/engineChoice.js';
import { withPool } from '../src/support/withPool.js';
import { tsdocMarkdown } from './tsdocMarkdown.js';
import { makeTablesFocusable } from './focusableTables.js';
import { listObjectTrees } from './listObjectTrees.js';

if (typeof document !== 'undefined') {
  makeTablesFocusable(document);
  listObjectTrees(document);
}

const preview: Preview = {
  // A Docs page for every component and hook: its description, live stories and props table.
  tags: ['autodocs'],
  decorators: [withPool],
  globalTypes: ENGINE_TOOLBAR,
  initialGlobals: { engine: 'simulated', model: DEFAULT_MODEL },
  parameters: {
    layout: 'padded',
    // Every story is checked by axe; a violation fails its test.
    a11y: { test: 'error' },
    controls: { expanded: true },
    docs: {
      // The description is the TSDoc that docgen read; its `@example`s are code, not Markdown.
      extractComponentDescription: (component?: { __docgenInfo?: { description?: unknown } }) => {
        const description = component?.__docgenInfo?.description;
        return typeof description === 'string' ? tsdocMarkdown(description) : '';
      },
    },
  },
};

export default preview;
