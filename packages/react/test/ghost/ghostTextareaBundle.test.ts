// @vitest-environment node
import { expect, it } from 'vitest';
import { appBundle } from './appBundle.js';

const shipped = async (names: string): Promise<string[]> => (await appBundle(names)).files;

// Structured output (schemas, JSON checks, partial objects), model storage, and tool calls.
const NOT_FOR_GHOST_TEXT = [/\/object\//, /[jJ]son/, /[sS]chema/, /responseFormat/, /[sS]torage/, /modelLock/, /[tT]ool/];

it('an app that uses only GhostTextarea ships ghost text, the provider and the pool, and no structured output, storage or tool code', async () => {
  const files = await shipped('EnginePool, PoolProvider, GhostTextarea');
  expect(files).toContain('react/src/ghost/core/ghostMachine.ts');
  expect(files).toContain('scheduler/src/enginePool.ts');
  expect(files.filter((file) => file.startsWith('react/') && !/^react\/src\/(ghost|base)\//.test(file))).toEqual([]);
  expect(files.filter((file) => NOT_FOR_GHOST_TEXT.some((pattern) => pattern.test(file)))).toEqual([]);
});

it('the same check sees structured output and storage code where an app imports them', async () => {
  const files = await shipped('EnginePool, PoolProvider, useObject, useModelStorage');
  expect(files.filter((file) => NOT_FOR_GHOST_TEXT.some((pattern) => pattern.test(file))).length).toBeGreaterThan(2);
});
