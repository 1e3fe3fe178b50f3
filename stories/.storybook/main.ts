import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions, mergeConfig } from 'vite';
import { hookDocgen } from './hookDocgen.js';

const config: StorybookConfig = {
  stories: ['../docs/**/*.mdx', '../src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Stories run against the packages' `src` (their `@inkling/source` export condition);
  // the hooks get docgen like components do, for their Docs pages.
  viteFinal: (vite) =>
    mergeConfig(vite, { plugins: [hookDocgen()], resolve: { conditions: ['@inkling/source', ...defaultClientConditions] } }),
};

export default config;
