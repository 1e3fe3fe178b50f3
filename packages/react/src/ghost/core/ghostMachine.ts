import type { InklingError, JobResult } from '@inkling/scheduler';
import type { GhostContext } from './ghostPrompt.js';
import { type GhostRefusalRules, ghostRefusal } from './ghostRefusal.js';
import { type GhostRequest, suggestionFor } from './ghostRequest.js';
import { type GhostTextState, ghostState, sameContext, typedSince } from './projectGhostText.js';

/**
 * Where ghost text is, each phase with its own data:
 * - `off`: disabled, composing, or not yet given text; nothing asked or shown.
 * - `quiet`: nothing to ask here (blank text, a refusal rule, dismissed, a request cancelled from outside).
 * - `looking`: about to look in the cache (a moment: the shell answers `found` at once); `accepted` when the text is what a Tab made.
 * - `debouncing`: waiting out `debounceMs` before asking.
 * - `asking`: a request is being built (`request` null) or is in flight; what it says is shown while it fits.
 * - `shown`: a complete suggestion, from the engine or the cache.
 * - `failed`: no suggestion, for `error`.
 */
export type GhostPhase =
  | { readonly name: 'off' }
  | { readonly name: 'quiet' }
  | { readonly name: 'looking'; readonly accepted: boolean }
  | { readonly name: 'debouncing' }
  | { readonly name: 'asking'; readonly request: GhostRequest | null }
  | { readonly name: 'shown'; readonly request: GhostRequest }
  | { readonly name: 'failed'; readonly error: InklingError };

/** The speculative request: the reply for the text once the suggestion shown at `from` is accepted. */
export interface GhostSpeculation {
  readonly request: GhostRequest;
  readonly from: GhostContext;
}

/** Everything ghost text knows about one editor; changed only by `step`. */
export interface GhostMachine {
  readonly phase: GhostPhase;
  /** The text around the caret now; `null` before the first text, or to make the next one count as a change. */
  readonly context: GhostContext | null;
  /** How many characters are selected (a selection refuses a request unless `refuse.selection` is off). */
  readonly selected: number;
  readonly refuse: GhostRefusalRules | undefined;
  readonly composing: boolean;
  /** Where Escape was pressed: nothing is asked there until the text or caret moves. */
  readonly dismissed: GhostContext | null;
  readonly next: GhostSpeculation | null;
}

/**
 * What moves it:
 * - `moved`: the text, caret or selection changed (or a composition ended).
 * - `found`: the cache answered `looking` (`hit` undefined: nothing there); `paused`: ask the engine nothing now.
 * - `quietEnded`: the debounce ran out.
 * - `sent` / `unbuildable`: the request asked for was built and sent, or `buildParams` threw.
 * - `speculated`: a speculative request was sent for `next`.
 * - `streamed` / `ended`: a request (current or speculative, by `id`) said more, or ended.
 * - `dismissed`: Escape.
 * - `composing`: an IME composition started or ended.
 * - `rebuilt`: another `buildParams` or `maxTokens` builds another request than the current or speculative one (or not).
 * - `halted`: disabled, another session or model, disposed; `forget` drops the context too, `undismiss` the Escape.
 */
export type GhostMachineEvent =
  | { readonly type: 'moved'; readonly context: GhostContext; readonly selected: number; readonly refuse?: GhostRefusalRules }
  | { readonly type: 'found'; readonly hit: GhostRequest | undefined; readonly paused?: boolean }
  | { readonly type: 'quietEnded' }
  | { readonly type: 'sent'; readonly request: GhostRequest }
  | { readonly type: 'unbuildable'; readonly error: InklingError }
  | { readonly type: 'speculated'; readonly next: GhostSpeculation }
  | { readonly type: 'streamed'; readonly id: number; readonly raw: string }
  | { readonly type: 'ended'; readonly id: number; readonly result: Pick<JobResult, 'status' | 'text' | 'error'> }
  | { readonly type: 'dismissed' }
  | { readonly type: 'composing'; readonly composing: boolean }
  | { readonly type: 'rebuilt'; readonly current: boolean; readonly next: boolean }
  | { readonly type: 'halted'; readonly forget?: boolean; readonly undismiss?: boolean };

/**
 * What the shell does for a step, in order: look in the cache (answering
 * `found`), start or clear the debounce timer (which answers `quietEnded`),
 * build and send a request (answering `sent` or `unbuildable`), stop the
 * current or speculative job, make the speculative job the current one,
 * maybe speculate from a shown suggestion (answering `speculated`), count.
 */
export type GhostEffect =
  | { readonly type: 'lookUp'; readonly context: GhostContext }
  | { readonly type: 'startTimer' }
  | { readonly type: 'clearTimer' }
  | { readonly type: 'ask'; readonly context: GhostContext }
  /** `superseded`: a keystroke replaced the request (the pool records it so), not a stop. */
  | { readonly type: 'stopCurrent'; readonly superseded?: true }
  | { readonly type: 'stopNext' }
  | { readonly type: 'adoptNext' }
  | { readonly type: 'speculate'; readonly from: GhostContext; readonly target: GhostContext }
  | { readonly type: 'countRefusal' };

/** A step's result: the machine's next state and what the shell must do. */
export interface GhostStep {
  readonly state: GhostMachine;
  readonly effects: readonly GhostEffect[];
}

/** The machine before any text. */
export const GHOST_START: GhostMachine = {
  phase: { name: 'off' },
  context: null,
  selected: 0,
  refuse: undefined,
  composing: false,
  dismissed: null,
  next: null,
};

const OFF: GhostPhase = { name: 'off' };
const QUIET: GhostPhase = { name: 'quiet' };
const STOP_CURRENT: readonly GhostEffect[] = [{ type: 'clearTimer' }, { type: 'stopCurrent' }];
const SUPERSEDE_CURRENT: readonly GhostEffect[] = [{ type: 'clearTimer' }, { type: 'stopCurrent', superseded: true }];
const same = (machine: GhostMachine): GhostStep => ({ state: machine, effects: [] });

/**
 * The request whose reply the phase shows, if any.
 *
 * @example
 * currentRequest({ name: 'debouncing' }); // null
 */
export function currentRequest(phase: GhostPhase): GhostRequest | null {
  return phase.name === 'asking' || phase.name === 'shown' ? phase.request : null;
}

/** The text a Tab on the shown suggestion makes (arriving there asks at once), or `null`. */
function acceptTarget(machine: GhostMachine): GhostContext | null {
  const { phase, context } = machine;
  if (phase.name !== 'shown' || !context) return null;
  const suggestion = suggestionFor(phase.request, context)?.suggestion;
  return suggestion ? { before: context.before + suggestion, after: context.after } : null;
}

/** Shows `request` at the machine's context (it fits there); a complete suggestion may be speculated from. */
function show(machine: GhostMachine, request: GhostRequest, effects: GhostEffect[]): GhostStep {
  const next: GhostMachine = { ...machine, phase: request.done ? { name: 'shown', request } : { name: 'asking', request } };
  const target = acceptTarget(next);
  if (target && machine.context && !(next.next && sameContext(next.next.request, target))) {
    effects.push({ type: 'speculate', from: machine.context, target });
  }
  return { state: next, effects };
}

/** Stops everything and shows nothing. */
function halt(machine: GhostMachine, context: GhostContext | null): GhostStep {
  const phase = machine.composing || !context ? OFF : QUIET;
  return { state: { ...machine, context, phase, next: null }, effects: [...STOP_CURRENT, { type: 'stopNext' }] };
}

/** The text or caret moved: keep what still fits, else look in the cache (then the speculation, then debounce). */
function moved(machine: GhostMachine, context: GhostContext): GhostStep {
  const at: GhostMachine = { ...machine, context };
  const request = currentRequest(machine.phase);
  if (request && suggestionFor(request, context)) return show(at, request, []);
  const accepted = sameContext(acceptTarget(machine), context);
  const effects: GhostEffect[] = [...SUPERSEDE_CURRENT];
  let { next } = machine;
  // A keystroke off the way from the shown suggestion to its accepted text: the speculation is moot.
  if (next && (typedSince(next.from, context) === undefined || typedSince(context, next.request) === undefined)) {
    next = null;
    effects.push({ type: 'stopNext' });
  }
  if (!context.before.trim() || sameContext(machine.dismissed, context)) return { state: { ...at, next, phase: QUIET }, effects };
  const undismissed: GhostMachine = { ...at, next, dismissed: null };
  if (ghostRefusal(context, machine.selected, machine.refuse)) {
    return { state: { ...undismissed, phase: QUIET }, effects: [...effects, { type: 'countRefusal' }] };
  }
  return { state: { ...undismissed, phase: { name: 'looking', accepted } }, effects: [...effects, { type: 'lookUp', context }] };
}

/** The cache answered: show its hit, else take over the speculation, else ask (at once after a Tab) or wait. */
function found(machine: GhostMachine, hit: GhostRequest | undefined, accepted: boolean, context: GhostContext, paused: boolean): GhostStep {
  if (hit) return show(machine, hit, []);
  const { next } = machine;
  if (next && sameContext(next.request, context)) {
    const adopted = { ...machine, next: null };
    // It has said nothing yet: asked again, at interactive priority.
    if (!next.request.raw) return ask({ ...adopted }, context, [{ type: 'stopNext' }]);
    if (suggestionFor(next.request, context)) return show(adopted, next.request, [{ type: 'adoptNext' }]);
    return { state: { ...adopted, phase: { name: 'asking', request: next.request } }, effects: [{ type: 'adoptNext' }] };
  }
  if (paused) return same({ ...machine, phase: QUIET });
  if (accepted) return ask(machine, context, []); // a Tab is deliberate: no debounce
  return { state: { ...machine, phase: { name: 'debouncing' } }, effects: [{ type: 'startTimer' }] };
}

function ask(machine: GhostMachine, context: GhostContext, effects: GhostEffect[]): GhostStep {
  return { state: { ...machine, phase: { name: 'asking', request: null } }, effects: [...effects, { type: 'ask', context }] };
}

/** A request said more, or ended well: show it while it fits, else move on as if the text had just changed. */
function streamed(machine: GhostMachine, request: GhostRequest): GhostStep {
  const { context } = machine;
  if (!context) return { state: machine, effects: [] };
  if (suggestionFor(request, context)) return show(machine, request, []);
  return moved({ ...machine, phase: { name: 'asking', request } }, context);
}

/** The speculation with the reply so far (or without it, once it ended). */
function withNext(machine: GhostMachine, id: number, raw?: string): GhostMachine {
  const { next } = machine;
  if (next?.request.id !== id) return machine;
  return { ...machine, next: raw === undefined ? null : { ...next, request: { ...next.request, raw } } };
}

/**
 * The whole flow of ghost text: pure, no timers or jobs, so it is tested as
 * a table. The shell (`GhostTextController`) runs the effects and feeds what
 * they answer back as events.
 *
 * @example
 * const { state, effects } = stepGhost(GHOST_START, { type: 'moved', context: { before: 'Hi', after: '' }, selected: 0 });
 * // state.phase: { name: 'looking', accepted: false }; effects end with { type: 'lookUp', … }
 * ghostStateOf(state).status; // 'queued': the one public status, derived
 */
export function stepGhost(machine: GhostMachine, event: GhostMachineEvent): GhostStep {
  const { phase } = machine;
  switch (event.type) {
    case 'moved': {
      const at = { ...machine, selected: event.selected, refuse: event.refuse };
      if (machine.composing) return same({ ...at, context: event.context });
      return moved(at, event.context);
    }
    case 'found':
      if (phase.name !== 'looking' || !machine.context) return same(machine);
      return found(machine, event.hit, phase.accepted, machine.context, event.paused === true);
    case 'quietEnded':
      return phase.name === 'debouncing' && machine.context ? ask(machine, machine.context, []) : same(machine);
    case 'sent':
      return phase.name === 'asking' && !phase.request
        ? same({ ...machine, phase: { name: 'asking', request: event.request } })
        : same(machine);
    case 'unbuildable':
      return phase.name === 'asking' && !phase.request
        ? same({ ...machine, phase: { name: 'failed', error: event.error } })
        : same(machine);
    case 'speculated':
      return same({ ...machine, next: event.next });
    case 'streamed': {
      const at = withNext(machine, event.id, event.raw);
      const request = currentRequest(phase);
      if (request?.id !== event.id || machine.composing) return same(at);
      return streamed(at, { ...request, raw: event.raw });
    }
    case 'ended': {
      const at = withNext(machine, event.id);
      const request = currentRequest(phase);
      if (request?.id !== event.id) return same(at);
      const { result } = event;
      if (result.status === 'done') return machine.composing ? same(at) : streamed(at, { ...request, raw: result.text, done: true });
      // An error, or cancelled from outside (the same session elsewhere, unload): nothing to show.
      if (result.status === 'error' && result.error) return same({ ...at, phase: { name: 'failed', error: result.error } });
      return same({ ...at, phase: QUIET });
    }
    case 'dismissed':
      if (machine.composing) return same(machine);
      return halt({ ...machine, dismissed: machine.context }, machine.context);
    case 'composing':
      if (event.composing === machine.composing) return same(machine);
      if (event.composing) return halt({ ...machine, composing: true }, machine.context);
      return same({ ...machine, composing: false });
    case 'rebuilt': {
      if (event.current) return halt(machine, null);
      if (event.next && machine.next) return { state: { ...machine, next: null }, effects: [{ type: 'stopNext' }] };
      return same(machine);
    }
    case 'halted':
      return halt(event.undismiss ? { ...machine, dismissed: null } : machine, event.forget ? null : machine.context);
  }
}

/**
 * What a machine shows: the one public state, derived (a phase and its
 * request say the suggestion and the status; nothing else is kept).
 *
 * @example
 * ghostStateOf(GHOST_START); // { suggestion: '', status: 'idle', error: null, context: null, fromCache: false }
 */
export function ghostStateOf(machine: GhostMachine): GhostTextState {
  const { phase, context } = machine;
  switch (phase.name) {
    case 'off':
    case 'quiet':
      return ghostState('idle', context);
    case 'looking':
    case 'debouncing':
      return ghostState('queued', context);
    case 'failed':
      return ghostState('error', context, '', phase.error);
    case 'asking':
    case 'shown': {
      const showing = phase.request && context ? suggestionFor(phase.request, context) : undefined;
      if (!showing) return ghostState('queued', context);
      return ghostState(showing.status, context, showing.suggestion, null, phase.request?.cached === true);
    }
  }
}
