import type { ChatCompletionRequest, ChatMessage, InklingError, JobResult, Pool, PoolStatus } from '@inkling/scheduler';
import type { ReactNode } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type GhostAcceptance,
  PoolProvider,
  type PoolProviderProps,
  type TranslationResult,
  useBatchTranslate,
  useChat,
  useCompletion,
  useEmbeddings,
  useGhostText,
  useModelLoad,
  usePool,
  usePoolStatus,
} from '../src/index.js';

describe('public hook signatures', () => {
  it('PoolProvider takes a pool and optional settings', () => {
    expectTypeOf(PoolProvider).parameter(0).toEqualTypeOf<PoolProviderProps>();
    expectTypeOf<PoolProviderProps['pool']>().toEqualTypeOf<Pool>();
    expectTypeOf<PoolProviderProps['load']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<PoolProviderProps['modelId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(PoolProvider).returns.toEqualTypeOf<ReactNode>();
  });

  it('usePool and usePoolStatus', () => {
    expectTypeOf(usePool).parameters.toEqualTypeOf<[]>();
    expectTypeOf(usePool).returns.toEqualTypeOf<Pool>();
    expectTypeOf(usePoolStatus).returns.toEqualTypeOf<PoolStatus>();
  });

  it('useModelLoad', () => {
    const load = useModelLoad();
    expectTypeOf(load.status).toEqualTypeOf<'idle' | 'loading' | 'ready' | 'error'>();
    expectTypeOf(load.progress).toEqualTypeOf<number>();
    expectTypeOf(load.text).toEqualTypeOf<string>();
    expectTypeOf(load.error).toEqualTypeOf<InklingError | null>();
    expectTypeOf(load.load).toEqualTypeOf<() => Promise<void>>();
    expectTypeOf(load.unload).toEqualTypeOf<() => Promise<void>>();
  });

  it('useCompletion', () => {
    expectTypeOf(useCompletion)
      .parameter(0)
      .toMatchTypeOf<{ priority?: 'interactive' | 'high' | 'normal' | 'low'; session?: string; task?: string } | undefined>();
    const completion = useCompletion({ priority: 'high', session: 's', task: 't' });
    expectTypeOf(completion.completion).toEqualTypeOf<string>();
    expectTypeOf(completion.status).toEqualTypeOf<'idle' | 'queued' | 'streaming' | 'done' | 'cancelled' | 'error'>();
    expectTypeOf(completion.error).toEqualTypeOf<InklingError | null>();
    expectTypeOf(completion.finishReason).toEqualTypeOf<'stop' | 'length' | 'abort' | 'tool_calls' | null>();
    expectTypeOf(completion.complete).parameter(0).toEqualTypeOf<string | ChatCompletionRequest>();
    expectTypeOf(completion.complete).returns.toEqualTypeOf<Promise<JobResult>>();
    expectTypeOf(completion.stop).toEqualTypeOf<() => void>();
    // @ts-expect-error: not a band
    useCompletion({ priority: 'urgent' });
  });

  it('useChat', () => {
    const chat = useChat({ system: 'Be brief.', params: { temperature: 0.2, max_tokens: 256 } });
    expectTypeOf(chat.messages).toEqualTypeOf<readonly ChatMessage[]>();
    expectTypeOf(chat.reply).toEqualTypeOf<string>();
    expectTypeOf(chat.sendMessage).toEqualTypeOf<(content: string | ChatMessage) => Promise<JobResult>>();
    expectTypeOf(chat.regenerate).toEqualTypeOf<() => Promise<JobResult>>();
    expectTypeOf(chat.setMessages)
      .parameter(0)
      .toEqualTypeOf<readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])>();
    // @ts-expect-error: messages come from sendMessage(), not params
    useChat({ params: { messages: [] } });
    // @ts-expect-error: named request fields keep their types
    useChat({ params: { temperature: 'warm' } });
  });

  it('useGhostText', () => {
    const ghost = useGhostText({ session: 'notes', text: 'Hello', caret: 5, debounceMs: 80, maxTokens: 16, enabled: true });
    expectTypeOf(ghost.suggestion).toEqualTypeOf<string>();
    expectTypeOf(ghost.status).toEqualTypeOf<'idle' | 'queued' | 'streaming' | 'done' | 'error'>();
    expectTypeOf(ghost.error).toEqualTypeOf<InklingError | null>();
    expectTypeOf(ghost.accept).toEqualTypeOf<() => GhostAcceptance>();
    expectTypeOf(ghost.acceptWord).toEqualTypeOf<() => GhostAcceptance>();
    expectTypeOf(ghost.accept().caret).toEqualTypeOf<number>();
    expectTypeOf(ghost.dismiss).toEqualTypeOf<() => void>();
    expectTypeOf(ghost.setComposing).toEqualTypeOf<(composing: boolean) => void>();
    useGhostText({
      session: 'notes',
      text: '',
      buildParams: ({ before, after, maxTokens }) => ({ messages: [{ role: 'user', content: before + after }], max_tokens: maxTokens }),
    });
    // @ts-expect-error: the text is required
    useGhostText({ session: 'notes' });
  });

  it('useBatchTranslate', () => {
    const batch = useBatchTranslate({ task: 'page', items: ['a'], to: 'fr', from: 'en', enabled: false });
    expectTypeOf(batch.results).toEqualTypeOf<readonly TranslationResult[]>();
    expectTypeOf<TranslationResult['status']>().toEqualTypeOf<'queued' | 'streaming' | 'done' | 'error' | 'cancelled'>();
    expectTypeOf(batch.progress).toEqualTypeOf<{ readonly done: number; readonly total: number }>();
    expectTypeOf(batch.status).toEqualTypeOf<'idle' | 'streaming' | 'done' | 'error' | 'cancelled'>();
    expectTypeOf(batch.start).toEqualTypeOf<() => void>();
    expectTypeOf(batch.cancel).toEqualTypeOf<() => void>();
    expectTypeOf(batch.retry).toEqualTypeOf<() => void>();
    // @ts-expect-error: a target language is required
    useBatchTranslate({ task: 'page', items: ['a'] });
  });

  it('useEmbeddings', () => {
    const vectors = useEmbeddings({ texts: ['a', 'b'], priority: 'low' });
    expectTypeOf(vectors.embeddings).toEqualTypeOf<number[][] | undefined>();
    expectTypeOf(vectors.status).toEqualTypeOf<'idle' | 'queued' | 'done' | 'error'>();
    expectTypeOf(vectors.error).toEqualTypeOf<InklingError | null>();
  });
});
