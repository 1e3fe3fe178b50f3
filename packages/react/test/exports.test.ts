// @vitest-environment node
import { expect, it } from 'vitest';

it('re-exports every runtime export of the scheduler’s app door, and nothing of its /testing entry', async () => {
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
  const core = await import('../src/core.js');
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

it('hands apps the hooks, the components and the scheduler’s app door, and none of the adapter or storage helpers', async () => {
  const react = await import('../src/index.js');
  expect(Object.keys(react).toSorted()).toEqual([
    'EngineCrashedError',
    'EngineError',
    'EngineLoadError',
    'EnginePool',
    'GhostFigures',
    'GhostTextarea',
    'InklingError',
    'InvalidJobError',
    'InvalidOptionError',
    'InvalidSchemaError',
    'JOB_KIND',
    'LoadCancelledError',
    'ModelFetchError',
    'ModelInUseError',
    'ModelLoadProgress',
    'ModelManager',
    'ModelUnreadableError',
    'NotEnoughStorageError',
    'ObjectValidationError',
    'OutOfMemoryError',
    'PRIORITY',
    'PRIORITY_ORDER',
    'PoolInspector',
    'PoolProvider',
    'SUPERSEDED',
    'StorageUnavailableError',
    'Subscribable',
    'TranslateList',
    'UnsupportedConstraintError',
    'WorkerCrashedError',
    'adaptiveDebounce',
    'adaptiveLength',
    'defaultGhostParams',
    'defaultTranslateParams',
    'ghostEvents',
    'inklingKeys',
    'pauseAfterRejections',
    'promptWindow',
    'useBatchTranslate',
    'useChat',
    'useCompletion',
    'useEmbeddings',
    'useGhostFigures',
    'useGhostText',
    'useGhostTextarea',
    'useModelLoad',
    'useModelLoadProgress',
    'useModelManager',
    'useModelStorage',
    'useObject',
    'usePool',
    'usePoolInspector',
    'usePoolStatus',
    'useTranslateList',
  ]);
  const engine = await import('@inkling/scheduler/engine');
  const storage = await import('@inkling/scheduler/storage');
  const scheduler = await import('@inkling/scheduler');
  const helpers = [...Object.keys(engine), ...Object.keys(storage)].filter((name) => !(name in scheduler));
  expect(helpers.length).toBeGreaterThan(30);
  expect(helpers.filter((name) => name in react)).toEqual([]);
});
