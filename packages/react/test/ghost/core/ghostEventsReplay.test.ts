// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { seededRandom } from '@inkling/scheduler/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../../src/ghost/core/ghostTextController.js';
import { ghostEvents } from '../../../src/ghost/core/ghostTextEvents.js';
import type { GhostTextEvent } from '../../../src/ghost/core/ghostTextEvent.js';
import { type GhostTextState, contextOf, typedSince } from '../../../src/ghost/core/projectGhostText.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function beforeOf(request: StreamingChatCompletionRequest): string {
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(request.messages.at(-1)?.content))?.[1] ?? '';
}

const WORDS = 'the of and to in is that it for was on are as with they be at one have this from or had by word but what'.split(' ');

/** Whether `next` is the same suggestion as `previous`: more of it streamed, or what is left after typing (or accepting) its start. */
function continues(previous: GhostTextState, next: GhostTextState): boolean {
  if (!previous.suggestion || !previous.context || !next.context) return false;
  const typed = typedSince(previous.context, next.context);
  if (typed === undefined || typed.length >= previous.suggestion.length) return false;
  return next.suggestion.startsWith(previous.suggestion.slice(typed.length)) && previous.suggestion.startsWith(typed);
}

it('accounts for every suggestion a writer saw exactly once: shown, accepted characters and Escapes match the replay', async () => {
  for (const seed of [1, 2, 3]) {
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const { pool } = fakePool(
      {
        reply: (request) => ` ${pick(WORDS)} ${pick(WORDS)}${beforeOf(request).length % 3 === 0 ? '' : ` ${pick(WORDS)}`}`,
        tokenMs: 15,
        prefillMs: 20,
      },
      { size: 1 },
    );
    await pool.load();
    const events: GhostTextEvent[] = [];
    const options = { session: 'w', events: ghostEvents((event) => events.push(event)) };
    const ghost = new GhostTextController(pool, { ...options, text: '' }, { now: () => Date.now() });
    let text = 'Dear Sam,';
    let caret = text.length;
    const set = () => ghost.setOptions({ ...options, text, caret });
    // The replay's own account, from what was on screen after every change.
    let seen = 0;
    let escapes = 0;
    let acceptedCharacters = 0;
    let last = ghost.getSnapshot();
    const look = () => {
      const now = ghost.getSnapshot();
      if (now.suggestion && now.suggestion !== last.suggestion && !continues(last, now)) seen += 1;
      last = now;
    };
    const wait = async (ms: number) => {
      for (let t = 0; t < ms; t += 5) {
        await vi.advanceTimersByTimeAsync(5);
        look();
      }
    };
    set();
    look();
    for (let step = 0; step < 60; step += 1) {
      const roll = random();
      if (roll < 0.5) {
        for (const char of ` ${pick(WORDS)}`) {
          text = text.slice(0, caret) + char + text.slice(caret);
          caret += 1;
          set();
          look();
          await wait(60);
        }
      } else if (roll < 0.7) {
        const accepted = random() < 0.5 ? ghost.accept() : ghost.acceptWord();
        acceptedCharacters += accepted.inserted.length;
        ({ text, caret } = accepted);
        set();
        look();
      } else if (roll < 0.8) {
        if (ghost.getSnapshot().suggestion) escapes += 1;
        ghost.dismiss();
        look();
      } else if (roll < 0.9) {
        caret = Math.max(0, caret - 1 - Math.floor(random() * 5)); // a click a little back
        set();
        look();
      } else {
        caret = text.length;
        set();
        look();
      }
      await wait(400);
    }
    ghost.dispose();
    const shown = events.filter((event) => event.type === 'shown');
    expect(shown.length).toBe(seen);
    expect(new Set(shown.map((event) => event.suggestion)).size).toBe(shown.length); // once each
    const accepted = events.filter((event) => event.type === 'accepted');
    expect(accepted.reduce((sum, event) => sum + event.characters, 0)).toBe(acceptedCharacters);
    expect(events.filter((event) => event.type === 'rejected' && event.reason === 'escape')).toHaveLength(escapes);
    // At most one ending per suggestion, after its `shown`.
    const ends = new Map<number, number>();
    for (const [i, event] of events.entries()) {
      const final =
        event.type === 'rejected' ||
        event.type === 'superseded' ||
        event.type === 'failed' ||
        (event.type === 'accepted' && event.how === 'all');
      if (!final) continue;
      expect(ends.has(event.suggestion)).toBe(false);
      ends.set(event.suggestion, i);
      const at = events.findIndex((other) => other.type === 'shown' && other.suggestion === event.suggestion);
      expect(at).toBeLessThan(i);
    }
    expect(contextOf(text, caret).before.length).toBeGreaterThan(0);
  }
}, 60_000);
