/// <reference types="node" />
import { join } from 'node:path';
import { type Rollup, build } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '@inkling/scheduler';
import { createDefaultWorker } from '../src/page/defaultWorker.js';

const fixtures = join(import.meta.dirname, 'fixtures');

/** A production Vite build of an app that relies on the default worker; WebLLM is a stub. */
async function buildApp(): Promise<Array<{ name: string; code: string }>> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: fixtures,
    resolve: { conditions: ['@inkling/source'], alias: { '@mlc-ai/web-llm': join(fixtures, 'webllmStub.ts') } },
    build: { write: false, rollupOptions: { input: join(fixtures, 'defaultWorkerApp.ts') } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) =>
    o.output.map((file) => ({ name: file.fileName, code: file.type === 'chunk' ? file.code : String(file.source) })),
  );
}

describe('the default worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is bundled by Vite as a worker of its own, with WebLLM inside it', async () => {
    const files = await buildApp();
    const workers = files.filter((f) => /worker-[\w-]+\.js$/.test(f.name));
    expect(workers.map((f) => f.name)).toHaveLength(1);
    const worker = workers[0]?.code ?? '';
    expect(worker).toContain('inkling-webllm-stub'); // WebLLM bundled in
    expect(worker).not.toContain('@mlc-ai/web-llm'); // no bare import left for the browser
    expect(worker).toContain("import it from a worker's file"); // the scope check kept (package.json's sideEffects)
    const app = files.find((f) => /defaultWorkerApp-[\w-]+\.js$/.test(f.name))?.code ?? '';
    expect(app).toContain(workers[0]?.name);
    expect(app).not.toContain('data:');
  }, 60_000);

  it('says how to supply a worker where there is no Worker', () => {
    vi.stubGlobal('Worker', undefined);
    expect(() => createDefaultWorker()).toThrow(InvalidOptionError);
  });
});
