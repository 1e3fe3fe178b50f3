// @vitest-environment node
import { expect, it } from 'vitest';

it('re-exports every runtime export of @inkling/scheduler, and nothing of its /testing entry', async () => {
  const react = await import('../src/index.js');
  const scheduler = await import('@inkling/scheduler');
  const testing = await import('@inkling/scheduler/testing');
  const missing = Object.entries(scheduler).filter(([name, value]) => (react as Record<string, unknown>)[name] !== value);
  expect(missing.map(([name]) => name)).toEqual([]);
  expect(Object.keys(testing).filter((name) => name in react)).toEqual([]);
});

it('keeps the simulated engines on their own /testing entry', async () => {
  const react = await import('../src/index.js');
  const testing = await import('../src/testing/index.js');
  expect(Object.keys(testing).toSorted()).toEqual(['pseudoTranslate', 'simulatedEngines', 'simulatedGhostReply', 'simulatedReply']);
  expect(Object.keys(testing).filter((name) => name in react)).toEqual([]);
});

it('puts the framework-free controllers on @inkling/react/core, and keeps building blocks no app uses off the main entry', async () => {
  const react = await import('../src/index.js');
  const core = await import('../src/core/index.js');
  for (const name of [
    'CompletionController',
    'ChatController',
    'GhostTextController',
    'BatchTranslateController',
    'Store',
    'StreamedJob',
  ]) {
    expect(typeof (core as Record<string, unknown>)[name]).toBe('function');
  }
  expect(Object.keys(core).filter((name) => name.startsWith('use'))).toEqual([]);
  expect(['animationFrame', 'insertText', 'inspectPool', 'loadErrorAdvice'].filter((name) => name in react)).toEqual([]);
});
