// @vitest-environment node
import type { ChatCompletionRequest } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { defaultGhostParams } from '../../../src/ghost/core/ghostPrompt.js';
import { contextOf } from '../../../src/ghost/core/projectGhostText.js';
import { type EditorState, typingSession } from './typingSession.js';

/** How many characters at the end of a prompt an engine with a prefix cache still has to prefill. */
const NEW_CHARS = 40;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

type Build = (input: { before: string; after: string; maxTokens: number }) => ChatCompletionRequest;

/** The share of keystrokes whose prompt is the previous one's but for its last `NEW_CHARS` characters. */
function prefixStableShare(states: readonly EditorState[], build: Build): number {
  const prompts = states.map(({ text, caret }) => JSON.stringify(build({ ...contextOf(text, caret), maxTokens: 24 }).messages));
  let stable = 0;
  for (let i = 1; i < prompts.length; i += 1) {
    const [previous, current] = [prompts[i - 1] as string, prompts[i] as string];
    if (current.length - commonPrefix(previous, current) <= NEW_CHARS) stable += 1;
  }
  return stable / (prompts.length - 1);
}

/** The prompt before it was made prefix-stable: a window sliding with the caret, the text after the caret last. */
const slidingWindow: Build = ({ before, after, maxTokens }) => {
  const head = before.slice(-1500);
  const tail = after.slice(0, 400);
  const user = tail.trim()
    ? `<before_cursor>${head}</before_cursor>\n<after_cursor>${tail}</after_cursor>`
    : `<before_cursor>${head}</before_cursor>`;
  const system = defaultGhostParams({ before: '', after: '', maxTokens }).messages[0];
  return { messages: [system as never, { role: 'user', content: user }], max_tokens: maxTokens, temperature: 0 };
};

describe('defaultGhostParams over a typing session', () => {
  const states = typingSession({ seed: 2026, noteLength: 10_000, keystrokes: 3000 });

  it('is a real session: a long note, typing at the end and in the middle, deletions, jumps and pastes', () => {
    expect(states).toHaveLength(3001);
    expect(states[0]?.text.length).toBe(10_000);
    const mid = states.filter((s) => s.caret < s.text.length - 500).length;
    const atEnd = states.filter((s) => s.caret === s.text.length).length;
    expect(mid).toBeGreaterThan(300);
    expect(atEnd).toBeGreaterThan(300);
  });

  it("keeps consecutive keystrokes' prompts the same but for their last 40 characters at least 95% of the time", () => {
    expect(prefixStableShare(states, defaultGhostParams)).toBeGreaterThanOrEqual(0.95);
  });

  it('does what a sliding window cannot on the same session', () => {
    expect(prefixStableShare(states, slidingWindow)).toBeLessThan(0.5);
  });
});
