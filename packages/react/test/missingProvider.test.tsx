import { render } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import {
  useBatchTranslate,
  useChat,
  useCompletion,
  useEmbeddings,
  useGhostText,
  useModelLoad,
  usePool,
  usePoolStatus,
} from '../src/index.js';
import { describeEachReactMode } from './utils.js';

const hooks: Record<string, () => unknown> = {
  usePool: () => usePool(),
  usePoolStatus: () => usePoolStatus(),
  useModelLoad: () => useModelLoad(),
  useCompletion: () => useCompletion(),
  useChat: () => useChat(),
  useGhostText: () => useGhostText({ session: 's', text: '' }),
  useBatchTranslate: () => useBatchTranslate({ task: 't', items: [], to: 'fr' }),
  useEmbeddings: () => useEmbeddings({ texts: [] }),
};

describeEachReactMode('a hook outside <PoolProvider>', (mode) => {
  it.each(Object.keys(hooks))('%s throws an error that names the fix', (name) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const useHook = hooks[name]!;
    function Orphan() {
      useHook();
      return null;
    }
    expect(() => render(<Orphan />, { reactStrictMode: mode.reactStrictMode })).toThrow(
      /found no engine pool\. Wrap your tree in <PoolProvider pool=\{pool\}>/,
    );
  });
});
