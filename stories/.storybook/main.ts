import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions, mergeConfig } from 'vite';

const config: StorybookConfig = {
  stories: ['../docs/**/*.mdx', '../src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Stories run against the packages' `src` (their `@inkling/source` export condition).
  viteFinal: (vite) => mergeConfig(vite, { resolve: { conditions: ['@inkling/source', ...defaultClientConditions] } }),
};

export default config;
