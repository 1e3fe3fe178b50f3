/**
 * A writer's session replayed against a `GhostTextController` with
 * `events: ghostEvents(…)`, keeping two accounts side by side: the ground
 * truth, from what was on screen (every state the controller committed, as a
 * subscriber sees it), and what the events say. Engine-agnostic and
 * clock-agnostic: `wait` is real time in a browser, fake timers in Node.
 */
import type { Pool } from '@inkling/scheduler';
import { GhostTextController } from '../../packages/react/src/ghost/core/ghostTextController.js';
import type { GhostTextEvent } from '../../packages/react/src/ghost/core/ghostTextEvent.js';
import { ghostEvents } from '../../packages/react/src/ghost/core/ghostTextEvents.js';
import { type GhostTextState, contextOf, typedSince } from '../../packages/react/src/ghost/core/projectGhostText.js';
import { seeded } from '../shared/stats.js';

const WORDS = 'the of and to in is that it for was on are as with they be at one have this from or had by word but what'.split(' ');

/** One account of a replay. */
export interface GhostAccount {
  /** Suggestions shown (a new one: not more of the last, nor what is left of it after typing or accepting its start). */
  readonly shown: number;
  /** Characters accepted with Tab or by word. */
  readonly acceptedChars: number;
  /** Escapes pressed while a suggestion was shown. */
  readonly escapes: number;
}

export interface TruthRun {
  readonly seed: number;
  readonly truth: GhostAccount;
  readonly events: GhostAccount;
  /** Events by type. */
  readonly counts: Record<string, number>;
  /** What breaks the rule "every shown suggestion accounted for once": empty when none. */
  readonly faults: string[];
}

/** Whether `next` is the same suggestion as `previous`: more of it streamed, or what is left after typing (or accepting) its start. */
function continues(previous: GhostTextState, next: GhostTextState): boolean {
  if (!previous.suggestion || !previous.context || !next.context) return false;
  const typed = typedSince(previous.context, next.context);
  if (typed === undefined || typed.length >= previous.suggestion.length) return false;
  return next.suggestion.startsWith(previous.suggestion.slice(typed.length)) && previous.suggestion.startsWith(typed);
}

/**
 * Plays `steps` random steps of a writer (seeded): a word typed a key every
 * `keyMs`, Tab, a word accepted, Escape, a click a little back, the caret to
 * the end; `readMs` after each.
 */
export async function truthReplay(
  pool: Pool,
  {
    seed,
    steps,
    keyMs = 60,
    readMs = 400,
    wait,
    now,
    trace,
  }: {
    seed: number;
    steps: number;
    keyMs?: number;
    readMs?: number;
    wait: (ms: number) => Promise<void>;
    now: () => number;
    /** Told every new suggestion on screen and every event, with texts (to find where the accounts part). */
    trace?: (line: string) => void;
  },
): Promise<TruthRun> {
  const random = seeded(seed * 7919);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const events: GhostTextEvent[] = [];
  const heard = (event: GhostTextEvent) => {
    events.push(event);
    trace?.(`  event ${JSON.stringify(event).replace(/"(session|model|promptBuilder)":"[^"]*",?/g, '')}`);
  };
  const options = { session: `truth-${seed}`, events: ghostEvents(heard, { text: trace !== undefined }) };
  const ghost = new GhostTextController(pool, { ...options, text: '' }, { now });
  let text = 'Dear Sam, thanks for';
  let caret = text.length;
  let shown = 0;
  let escapes = 0;
  let acceptedChars = 0;
  let last = ghost.getSnapshot();
  const look = () => {
    const state = ghost.getSnapshot();
    if (state.suggestion && state.suggestion !== last.suggestion && !continues(last, state)) {
      shown += 1;
      trace?.(
        `screen #${shown} ${JSON.stringify(state.suggestion)} (was ${JSON.stringify(last.suggestion)}) before ${JSON.stringify(state.context?.before.slice(-20))}`,
      );
    }
    last = state;
  };
  const stop = ghost.subscribe(look);
  const set = () => {
    ghost.setOptions({ ...options, text, caret });
    look();
  };
  set();
  await wait(readMs * 2);
  for (let step = 0; step < steps; step += 1) {
    const roll = random();
    if (roll < 0.5) {
      for (const char of ` ${pick(WORDS)}`) {
        text = text.slice(0, caret) + char + text.slice(caret);
        caret += 1;
        set();
        await wait(keyMs);
      }
    } else if (roll < 0.7) {
      // Like the hooks: what is accepted is what the screen shows (a token that came after the last paint is not).
      const onScreen = ghost.view(last, { text, caret }).suggestion;
      const accepted = ghost.acceptFrom({ text, caret, suggestion: onScreen }, random() < 0.5 ? 'all' : 'word');
      acceptedChars += accepted.inserted.length;
      ({ text, caret } = accepted);
      set();
    } else if (roll < 0.8) {
      if (ghost.view(last, { text, caret }).suggestion) escapes += 1; // on screen, as the person saw it
      ghost.dismiss();
      look();
    } else if (roll < 0.9) {
      caret = Math.max(0, caret - 1 - Math.floor(random() * 5)); // a click a little back
      set();
    } else {
      caret = text.length;
      set();
    }
    await wait(readMs);
  }
  stop();
  ghost.dispose();
  const counts: Record<string, number> = {};
  for (const event of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
  const shownEvents = events.filter((event) => event.type === 'shown');
  const faults: string[] = [];
  if (new Set(shownEvents.map((event) => event.suggestion)).size !== shownEvents.length) faults.push('a suggestion shown twice');
  const ends = new Map<number, number>();
  for (const [i, event] of events.entries()) {
    const final =
      event.type === 'rejected' ||
      event.type === 'superseded' ||
      event.type === 'failed' ||
      (event.type === 'accepted' && event.how === 'all');
    if (!final) continue;
    if (ends.has(event.suggestion)) faults.push(`suggestion ${event.suggestion} ended twice`);
    ends.set(event.suggestion, i);
    const at = events.findIndex((other) => other.type === 'shown' && other.suggestion === event.suggestion);
    if (event.type !== 'superseded' && event.type !== 'failed' && (at < 0 || at > i))
      faults.push(`suggestion ${event.suggestion} ended before shown`);
  }
  // Every shown suggestion ends (the last one at the latest by `dispose`); a word accepted that was all of it ends it too.
  const lastOf = new Map(events.map((event) => [event.suggestion, event]));
  for (const event of shownEvents) {
    const final = lastOf.get(event.suggestion);
    if (!ends.has(event.suggestion) && !(final?.type === 'accepted' && final.how === 'word')) {
      faults.push(`suggestion ${event.suggestion} shown, never ended`);
    }
  }
  if (contextOf(text, caret).before.length === 0) faults.push('the writer wrote nothing');
  return {
    seed,
    truth: { shown, acceptedChars, escapes },
    events: {
      shown: shownEvents.length,
      acceptedChars: events.reduce((sum, event) => sum + (event.type === 'accepted' ? event.characters : 0), 0),
      escapes: events.filter((event) => event.type === 'rejected' && event.reason === 'escape').length,
    },
    counts,
    faults,
  };
}

/** The runs as a table: the two accounts and whether they agree. */
export function truthTable(engine: string, runs: readonly TruthRun[]): string {
  const rows = runs.map((run) => {
    const same = (key: keyof GhostAccount) =>
      run.truth[key] === run.events[key] ? `${run.truth[key]}` : `${run.truth[key]} ≠ ${run.events[key]}`;
    return `| ${engine} | ${run.seed} | ${same('shown')} | ${same('acceptedChars')} | ${same('escapes')} | ${run.counts.rejected ?? 0} | ${run.counts.superseded ?? 0} | ${run.counts.typedThrough ?? 0} | ${run.faults.length ? run.faults.join('; ') : 'none'} |`;
  });
  return [
    '| engine | seed | shown (screen = events) | accepted chars | Escapes | rejected | superseded | typedThrough | faults |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
