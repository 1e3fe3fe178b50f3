import { screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useEmbeddings } from '../src/index.js';
import { advance, describeEachReactMode, engineCalls, fakePool, renderWithPool } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function Vectors({ texts, id = 'v' }: { texts: string[]; id?: string }) {
  const { embeddings, status, error } = useEmbeddings({ texts: texts });
  return (
    <p data-testid={id} data-status={status}>
      {error ? error.message : (embeddings?.map((v) => v.length).join(',') ?? '')}
    </p>
  );
}

describeEachReactMode('useEmbeddings', (mode) => {
  it('embeds texts through the pool as one embedding job', async () => {
    const { pool, createEngine } = fakePool({ prefillMs: 10 });
    renderWithPool(<Vectors texts={['cat', 'dog']} />, pool, mode);
    await advance(0);
    expect(screen.getByTestId('v').dataset.status).toBe('queued');
    await advance(100);
    expect(screen.getByTestId('v').dataset.status).toBe('done');
    expect(screen.getByTestId('v').textContent).toBe('8,8');
    expect(engineCalls(createEngine).map((c) => c.request)).toEqual([{ input: ['cat', 'dog'] }]);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ kind: 'embedding', status: 'done' });
  });

  it('serves texts embedded before from the cache, whatever list they come in', async () => {
    const { pool, createEngine } = fakePool();
    const view = renderWithPool(<Vectors texts={['cat', 'dog']} />, pool, mode);
    await advance(100);
    view.rerender(<Vectors texts={['dog', 'cat']} />);
    await advance(100);
    expect(screen.getByTestId('v').dataset.status).toBe('done');
    expect(engineCalls(createEngine)).toHaveLength(1);
    view.rerender(<Vectors texts={['dog', 'eel']} />);
    await advance(100);
    expect(engineCalls(createEngine).map((c) => c.request)).toEqual([{ input: ['cat', 'dog'] }, { input: ['eel'] }]);
  });

  it('is idle with nothing to embed', async () => {
    const { pool, createEngine } = fakePool();
    renderWithPool(<Vectors texts={[]} />, pool, mode);
    await advance(100);
    expect(screen.getByTestId('v').dataset.status).toBe('idle');
    expect(engineCalls(createEngine)).toHaveLength(0);
  });

  it('shows an engine that cannot embed as an error state', async () => {
    const { pool } = fakePool({ embeddings: false });
    renderWithPool(<Vectors texts={['cat']} />, pool, mode);
    await advance(100);
    expect(screen.getByTestId('v').dataset.status).toBe('error');
    expect(screen.getByTestId('v').textContent).toContain('cannot make embeddings');
  });
});
