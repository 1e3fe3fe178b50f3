/// <reference types="node" />
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const src = join(import.meta.dirname, '../src');

describe('importing @inkling/webllm on a server', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('touches neither navigator nor Worker', async () => {
    const touched: string[] = [];
    const trap = (name: string) => new Proxy({}, { get: (_, key) => (touched.push(`${name}.${String(key)}`), undefined) });
    vi.stubGlobal('navigator', trap('navigator'));
    vi.stubGlobal('Worker', trap('Worker'));
    vi.resetModules();
    const module = await import('../src/index.js');
    expect(typeof module.webllmEngines).toBe('function');
    module.webllmEngines({ model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }); // making the factory loads nothing either
    expect(touched).toEqual([]);
  });

  it('loads WebLLM only inside functions (dynamic import), never at module scope', () => {
    const files = readdirSync(src).filter((f: string) => f.endsWith('.ts') && f !== 'worker.ts');
    for (const file of files) {
      const text = readFileSync(join(src, file), 'utf8');
      const staticImport = /^import\s+(?!type\b)[^;]*from\s+'@mlc-ai\/web-llm'/m.test(text);
      expect(staticImport, `${file} imports @mlc-ai/web-llm at module scope`).toBe(false);
    }
    expect(readFileSync(join(src, 'index.ts'), 'utf8')).not.toMatch(/worker\.js'/);
  });
});
