// @vitest-environment node
// Ghost text's machine as a user reaches it: from `@inkling/react/core`, driven by hand, no timers.
import { InklingError } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import * as core from '../../../src/core.js';
import { GHOST_START, type GhostMachine, type GhostMachineEvent, type GhostRequest, ghostStateOf, stepGhost } from '../../../src/core.js';

const at = (before: string, after = '') => ({ before, after });

/** Runs events through the machine, returning every step's state, effect types and public state. */
function run(events: GhostMachineEvent[], from: GhostMachine = GHOST_START) {
  let state = from;
  return events.map((event) => {
    const step = stepGhost(state, event);
    state = step.state;
    return { state, effects: step.effects.map((effect) => effect.type), shown: ghostStateOf(state) };
  });
}

describe('@inkling/react/core: the ghost machine', () => {
  it('is on the framework-free door, beside its shell, and not on the app door', async () => {
    expect([typeof core.stepGhost, typeof core.ghostStateOf, typeof core.GHOST_START]).toEqual(['function', 'function', 'object']);
    expect(typeof core.GhostTextController).toBe('function');
    const app = await import('../../../src/index.js');
    expect(['stepGhost', 'ghostStateOf', 'GHOST_START'].filter((name) => name in app)).toEqual([]);
  });

  it('step(state, event) gives { state, effects }: a keystroke, the cache, the debounce, the request, its reply, type-through', () => {
    const request: GhostRequest = { ...at('The'), id: 1, key: 'k1', raw: '', done: false };
    const steps = run([
      { type: 'moved', context: at('The'), selected: 0 },
      { type: 'found', hit: undefined },
      { type: 'quietEnded' },
      { type: 'sent', request },
      { type: 'streamed', id: 1, raw: ' quick' },
      { type: 'ended', id: 1, result: { status: 'done', text: ' quick fox', error: undefined } },
      { type: 'moved', context: at('The qu'), selected: 0 },
      { type: 'moved', context: at('The z'), selected: 0 },
    ]);
    expect(steps.map((s) => [s.state.phase.name, s.effects, s.shown.status, s.shown.suggestion])).toEqual([
      ['looking', ['clearTimer', 'stopCurrent', 'lookUp'], 'queued', ''],
      ['debouncing', ['startTimer'], 'queued', ''],
      ['asking', ['ask'], 'queued', ''],
      ['asking', [], 'queued', ''],
      ['asking', [], 'streaming', ' quick'],
      ['shown', ['speculate'], 'done', ' quick fox'],
      // Typed through: the same reply, shorter, and no new request (only the speculation, never sent here).
      ['shown', ['speculate'], 'done', 'ick fox'],
      // Typed over: the reply no longer fits, so nothing of it is shown and the cache is asked.
      ['looking', ['clearTimer', 'stopCurrent', 'lookUp'], 'queued', ''],
    ]);
  });

  it('answers a reply of another request with nothing, and leaves its input as it was', () => {
    const [asking] = run([
      { type: 'moved', context: at('Hi'), selected: 0 },
      { type: 'found', hit: undefined },
      { type: 'quietEnded' },
      { type: 'sent', request: { ...at('Hi'), id: 7, key: 'k7', raw: '', done: false } },
    ]).slice(-1);
    const frozen = structuredClone(asking!.state);
    const step = stepGhost(asking!.state, { type: 'streamed', id: 8, raw: ' there' });
    expect(step.effects).toEqual([]);
    expect(ghostStateOf(step.state)).toMatchObject({ status: 'queued', suggestion: '' });
    expect(asking!.state).toEqual(frozen);
  });

  it('derives the one public status from the state alone', () => {
    expect(ghostStateOf(GHOST_START)).toMatchObject({ status: 'idle', suggestion: '', error: null });
    const [failed] = run([
      { type: 'moved', context: at('Hi'), selected: 0 },
      { type: 'found', hit: undefined },
      { type: 'quietEnded' },
      { type: 'unbuildable', error: new InklingError('buildParams threw') },
    ]).slice(-1);
    expect(failed!.shown).toMatchObject({ status: 'error', suggestion: '', error: { message: 'buildParams threw' } });
  });
});
