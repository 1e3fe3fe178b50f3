import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { serveStatic } from './serveStatic.js';

declare module 'vitest' {
  export interface ProvidedContext {
    demoUrl: string;
    storybookUrl: string;
  }
}

const built = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Serves the built demo and Storybook for the whole run. */
export default async function setup(project: TestProject) {
  const demo = await serveStatic(built('apps/demo/dist'));
  const storybook = await serveStatic(built('stories/storybook-static'));
  project.provide('demoUrl', demo.url);
  project.provide('storybookUrl', storybook.url);
  return async () => {
    await demo.close();
    await storybook.close();
  };
}
