// @vitest-environment node
import { InklingError } from '@inkling/scheduler';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type GhostMachineEvent,
  type GhostMachine,
  type GhostPhase,
  GHOST_START,
  ghostStateOf,
  stepGhost,
} from '../../../src/ghost/core/ghostMachine.js';
import { stripRepetition } from '../../../src/ghost/core/ghostPrompt.js';
import type { GhostRequest } from '../../../src/ghost/core/ghostRequest.js';
import { acceptSuggestion, contextOf, typedSince } from '../../../src/ghost/core/projectGhostText.js';

const at = (before: string, after = '') => ({ before, after });
const request = (before: string, raw: string, done: boolean, id = 1, extra: Partial<GhostRequest> = {}): GhostRequest => ({
  ...at(before),
  id,
  key: `k${id}`,
  raw,
  done,
  ...extra,
});
const machine = (phase: GhostPhase, before: string | null, extra: Partial<GhostMachine> = {}): GhostMachine => ({
  ...GHOST_START,
  phase,
  context: before === null ? null : at(before),
  ...extra,
});
const moved = (before: string, selected = 0): GhostMachineEvent => ({ type: 'moved', context: at(before), selected });
const error = new InklingError('engine fell over');

const shownFox = machine({ name: 'shown', request: request('The', ' quick fox', true) }, 'The');
const next = { request: request('The quick fox', '', false, 2), from: at('The') };

/** [what happens, machine, event, phase after, effects after (their types), status and suggestion after] */
const TABLE: [string, GhostMachine, GhostMachineEvent, GhostPhase['name'], string[], string, string][] = [
  ['first text: look in the cache', GHOST_START, moved('Hi'), 'looking', ['clearTimer', 'stopCurrent', 'lookUp'], 'queued', ''],
  ['blank text: quiet', GHOST_START, moved('  '), 'quiet', ['clearTimer', 'stopCurrent'], 'idle', ''],
  [
    'caret mid-word: refused',
    GHOST_START,
    { type: 'moved', context: at('He', 'llo'), selected: 0 },
    'quiet',
    ['clearTimer', 'stopCurrent', 'countRefusal'],
    'idle',
    '',
  ],
  ['a selection: refused', GHOST_START, moved('Hi', 2), 'quiet', ['clearTimer', 'stopCurrent', 'countRefusal'], 'idle', ''],
  [
    'at the dismissed text: quiet',
    machine({ name: 'quiet' }, 'Hi!', { dismissed: at('Hi') }),
    moved('Hi'),
    'quiet',
    ['clearTimer', 'stopCurrent'],
    'idle',
    '',
  ],
  [
    'cache miss: debounce',
    machine({ name: 'looking', accepted: false }, 'Hi'),
    { type: 'found', hit: undefined },
    'debouncing',
    ['startTimer'],
    'queued',
    '',
  ],
  [
    'cache miss after a Tab: ask at once',
    machine({ name: 'looking', accepted: true }, 'Hi'),
    { type: 'found', hit: undefined },
    'asking',
    ['ask'],
    'queued',
    '',
  ],
  [
    'cache hit: shown, and the next speculated',
    machine({ name: 'looking', accepted: false }, 'The'),
    { type: 'found', hit: request('The', ' quick fox', true, 3, { cached: true }) },
    'shown',
    ['speculate'],
    'done',
    ' quick fox',
  ],
  [
    'cache miss while paused (rejections in a row): quiet',
    machine({ name: 'looking', accepted: false }, 'Hi'),
    { type: 'found', hit: undefined, paused: true },
    'quiet',
    [],
    'idle',
    '',
  ],
  ['debounce over: ask', machine({ name: 'debouncing' }, 'Hi'), { type: 'quietEnded' }, 'asking', ['ask'], 'queued', ''],
  ['debounce over, but moved on since: nothing', machine({ name: 'quiet' }, 'Hi'), { type: 'quietEnded' }, 'quiet', [], 'idle', ''],
  [
    'request sent',
    machine({ name: 'asking', request: null }, 'Hi'),
    { type: 'sent', request: request('Hi', '', false) },
    'asking',
    [],
    'queued',
    '',
  ],
  ['buildParams threw', machine({ name: 'asking', request: null }, 'Hi'), { type: 'unbuildable', error }, 'failed', [], 'error', ''],
  [
    'tokens of the current request',
    machine({ name: 'asking', request: request('The', '', false) }, 'The'),
    { type: 'streamed', id: 1, raw: ' quick' },
    'asking',
    [],
    'streaming',
    ' quick',
  ],
  [
    'tokens of another request: ignored',
    machine({ name: 'asking', request: request('The', '', false) }, 'The'),
    { type: 'streamed', id: 7, raw: ' lazy' },
    'asking',
    [],
    'queued',
    '',
  ],
  [
    'ended well: shown, and the next speculated',
    machine({ name: 'asking', request: request('The', ' qu', false) }, 'The'),
    { type: 'ended', id: 1, result: { status: 'done', text: ' quick fox' } },
    'shown',
    ['speculate'],
    'done',
    ' quick fox',
  ],
  [
    'ended in an error',
    machine({ name: 'asking', request: request('The', ' qu', false) }, 'The'),
    { type: 'ended', id: 1, result: { status: 'error', text: '', error } },
    'failed',
    [],
    'error',
    '',
  ],
  [
    'cancelled from outside',
    machine({ name: 'asking', request: request('The', ' qu', false) }, 'The'),
    { type: 'ended', id: 1, result: { status: 'cancelled', text: '' } },
    'quiet',
    [],
    'idle',
    '',
  ],
  ['typed through: the rest, no request', shownFox, moved('The qu'), 'shown', ['speculate'], 'done', 'ick fox'],
  ['typed through with the speculation on its way: kept', { ...shownFox, next }, moved('The qu'), 'shown', [], 'done', 'ick fox'],
  [
    'typed over: dropped at once, the speculation too',
    { ...shownFox, next },
    moved('The x'),
    'looking',
    ['clearTimer', 'stopCurrent', 'stopNext', 'lookUp'],
    'queued',
    '',
  ],
  [
    'Tab: at the accepted text, look (then ask at once)',
    shownFox,
    moved('The quick fox'),
    'looking',
    ['clearTimer', 'stopCurrent', 'lookUp'],
    'queued',
    '',
  ],
  [
    'Tab before the speculation said anything: asked again',
    machine({ name: 'looking', accepted: true }, 'The quick fox', { next }),
    { type: 'found', hit: undefined },
    'asking',
    ['stopNext', 'ask'],
    'queued',
    '',
  ],
  [
    'Tab while the speculation streams: it becomes the current request',
    machine({ name: 'looking', accepted: true }, 'The quick fox', { next: { ...next, request: { ...next.request, raw: ' jumps' } } }),
    { type: 'found', hit: undefined },
    'asking',
    ['adoptNext'],
    'streaming',
    ' jumps',
  ],
  ['Escape', shownFox, { type: 'dismissed' }, 'quiet', ['clearTimer', 'stopCurrent', 'stopNext'], 'idle', ''],
  [
    'composition starts: off',
    shownFox,
    { type: 'composing', composing: true },
    'off',
    ['clearTimer', 'stopCurrent', 'stopNext'],
    'idle',
    '',
  ],
  ['typing while composing: nothing asked', machine({ name: 'off' }, 'The', { composing: true }), moved('Theの'), 'off', [], 'idle', ''],
  ['Escape while composing: the IME’s', machine({ name: 'off' }, 'The', { composing: true }), { type: 'dismissed' }, 'off', [], 'idle', ''],
  ['disabled', shownFox, { type: 'halted', forget: true }, 'off', ['clearTimer', 'stopCurrent', 'stopNext'], 'idle', ''],
  [
    'another buildParams that builds the same request: kept',
    shownFox,
    { type: 'rebuilt', current: false, next: false },
    'shown',
    [],
    'done',
    ' quick fox',
  ],
  [
    'another buildParams that builds another request: stopped',
    shownFox,
    { type: 'rebuilt', current: true, next: false },
    'off',
    ['clearTimer', 'stopCurrent', 'stopNext'],
    'idle',
    '',
  ],
];

describe('stepGhost', () => {
  it.each(TABLE)('%s', (_, from, event, phase, effects, status, suggestion) => {
    const step = stepGhost(from, event);
    expect(step.state.phase.name).toBe(phase);
    expect(step.effects.map((effect) => effect.type)).toEqual(effects);
    expect(ghostStateOf(step.state)).toMatchObject({ status, suggestion });
  });

  it('is pure: the machine it was given is unchanged, and the same step gives the same result', () => {
    for (const [, from, event] of TABLE) {
      const copy = structuredClone(from);
      expect(stepGhost(from, event)).toEqual(stepGhost(from, event));
      expect(from).toEqual(copy);
    }
  });
});

/** A reply that names the text it answers (its length and last letter). */
const reply = (before: string) => `${/\s$/.test(before) ? '' : ' '}<${before.length}${before.slice(-1).trim()}> x`;

type Action =
  | { kind: 'type'; char: string }
  | { kind: 'backspace' | 'tab' | 'escape' | 'quiet' | 'compose' }
  | { kind: 'caret'; to: number }
  | { kind: 'stream' | 'end'; job: number; chars: number };

const ACTION: fc.Arbitrary<Action> = fc.oneof(
  fc.constantFrom('a', 'b', ' ').map((char) => ({ kind: 'type', char }) as const),
  fc.constantFrom('backspace', 'tab', 'escape', 'quiet', 'compose').map((kind) => ({ kind }) as Action),
  fc.nat(12).map((to) => ({ kind: 'caret', to }) as const),
  fc.record({ kind: fc.constantFrom('stream', 'end'), job: fc.nat(20), chars: fc.integer({ min: 1, max: 4 }) }),
);

describe('stepGhost, driven by a world of jobs, a cache and a person', () => {
  it('never shows a suggestion for other text than the one on screen, whichever job speaks when', () => {
    fc.assert(
      fc.property(fc.array(ACTION, { maxLength: 60 }), (actions) => {
        let m = GHOST_START;
        let text = 'Hi';
        let caret = 2;
        const jobs: GhostRequest[] = [];
        const streamed = new Map<number, number>();
        const cache = new Map<string, string>();
        const dispatch = (event: GhostMachineEvent) => {
          const step = stepGhost(m, event);
          m = step.state;
          for (const effect of step.effects) {
            if (effect.type === 'lookUp') {
              const { before, after } = effect.context;
              const raw = cache.get(`${before}|${after}`);
              const hit = raw === undefined ? undefined : { ...effect.context, id: -1, key: '', raw, done: true, cached: true };
              dispatch({ type: 'found', hit });
            } else if (effect.type === 'ask' || effect.type === 'speculate') {
              const context = effect.type === 'ask' ? effect.context : effect.target;
              const sent: GhostRequest = { ...context, id: jobs.length, key: '', raw: '', done: false };
              jobs.push(sent);
              dispatch(
                effect.type === 'ask'
                  ? { type: 'sent', request: sent }
                  : { type: 'speculated', next: { request: sent, from: effect.from } },
              );
            }
          }
        };
        const move = () => dispatch({ type: 'moved', context: contextOf(text, caret), selected: 0 });
        move();
        for (const action of actions) {
          if (action.kind === 'type') {
            text = text.slice(0, caret) + action.char + text.slice(caret);
            caret += 1;
            move();
          } else if (action.kind === 'backspace') {
            if (caret === 0) continue;
            text = text.slice(0, caret - 1) + text.slice(caret);
            caret -= 1;
            move();
          } else if (action.kind === 'caret') {
            caret = Math.min(action.to, text.length);
            move();
          } else if (action.kind === 'tab') {
            const accepted = acceptSuggestion(text, caret, ghostStateOf(m).suggestion, 'all');
            ({ text, caret } = accepted);
            move();
          } else if (action.kind === 'escape') dispatch({ type: 'dismissed' });
          else if (action.kind === 'quiet') dispatch({ type: 'quietEnded' });
          else if (action.kind === 'compose') {
            dispatch({ type: 'composing', composing: !m.composing });
            if (!m.composing) move();
          } else if (action.kind === 'stream' || action.kind === 'end') {
            const job = jobs[action.job % Math.max(1, jobs.length)];
            if (!job) continue;
            const full = reply(job.before);
            if (action.kind === 'stream') {
              const sent = Math.min(full.length, (streamed.get(job.id) ?? 0) + action.chars);
              streamed.set(job.id, sent);
              dispatch({ type: 'streamed', id: job.id, raw: full.slice(0, sent) });
            } else {
              cache.set(`${job.before}|${job.after}`, full);
              dispatch({ type: 'ended', id: job.id, result: { status: 'done', text: full } });
            }
          }
          const { suggestion } = ghostStateOf(m);
          if (!suggestion) continue;
          // Whatever is shown is the rest of the reply to a text that the text on screen types through.
          const { phase, context } = m;
          const shown = phase.name === 'asking' || phase.name === 'shown' ? phase.request : null;
          expect(shown && context).toBeTruthy();
          if (!shown || !context) continue;
          const full = reply(shown.before);
          expect(full.startsWith(shown.raw)).toBe(true);
          const typed = typedSince(shown, context);
          expect(typed).toBeDefined();
          expect(stripRepetition(full, shown, true).startsWith(`${typed}${suggestion}`)).toBe(true);
          expect(contextOf(text, caret)).toEqual(context);
        }
      }),
      { numRuns: 150 },
    );
  });
});
