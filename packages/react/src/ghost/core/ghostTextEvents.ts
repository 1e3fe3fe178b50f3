import { InvalidOptionError } from '@inkling/scheduler';
import type { GhostAddOnOptions, GhostEvents, GhostWatcher } from './ghostAddOn.js';
import type { GhostMachine, GhostMachineEvent } from './ghostMachine.js';
import { defaultGhostParams } from './ghostPrompt.js';
import type { GhostEventBase, GhostEventLabels, GhostSuggestionSource, GhostTextEvent } from './ghostTextEvent.js';
import { typedSince } from './projectGhostText.js';

/**
 * The `events` option of `useGhostText`, `GhostTextarea` and
 * `GhostTextController`: `listener` is called with what each suggestion
 * became (`shown`, `typedThrough`, `accepted`, `rejected`, `superseded`,
 * `failed`; see `GhostTextEvent`), synchronously, in order. The kit sends
 * nothing anywhere; feed them to `GhostFigures` or your own log. `text`
 * (default `false`: no text leaves the editor in an event) puts the
 * suggestion's text in `shown` and `accepted` events. Without this option
 * nothing is tracked, and an app that never imports it ships none of the
 * tracking. Throws an `InvalidOptionError` when `listener` is not a function.
 *
 * @example
 * useGhostText({ session: 'notes', text, events: ghostEvents(figures.record) });
 */
export function ghostEvents(listener: (event: GhostTextEvent) => void, { text = false }: { text?: boolean } = {}): GhostEvents {
  if (typeof listener !== 'function') {
    throw new InvalidOptionError(`ghostEvents() needs a function to call with each event; it got ${typeof listener}.`);
  }
  return { listener, text, start: startEvents };
}

/** One watcher per controller (not per `ghostEvents` call: a new value each render keeps the tracking), calling the latest listener. */
function startEvents(now: () => number): GhostWatcher {
  return eventWatcher(now, (event, { events }) => events?.listener(event));
}

/**
 * A watcher that turns a controller's steps and accepts into
 * `GhostTextEvent`s, each handed to `heard` with the options of the moment
 * (`ghostEvents` and `pauseAfterRejections` are built on it).
 *
 * @example
 * const watcher = eventWatcher(() => performance.now(), (event) => console.log(event.type));
 */
export function eventWatcher(now: () => number, heard: (event: GhostTextEvent, options: GhostAddOnOptions) => void): GhostWatcher {
  let options: GhostAddOnOptions | undefined;
  const tracker = new GhostEventTracker(now, () => options?.events?.text === true);
  const tell = (events: readonly GhostTextEvent[], latest: GhostAddOnOptions) => {
    options = latest;
    for (const event of events) heard(event, latest);
  };
  return {
    stepped: (before, after, input, suggestion, latest) =>
      tell(tracker.observe(before, after, input, suggestion, labelsOf(latest)), latest),
    accepted: (how, inserted, suggestion, latest) => tell(tracker.accepted(how, inserted, suggestion, labelsOf(latest)), latest),
    painted: () => tracker.painted(),
  };
}

/** The names stamped on a session's events. */
function labelsOf({ session, model = '', buildParams = defaultGhostParams }: GhostAddOnOptions): GhostEventLabels {
  return { session, model, promptBuilder: buildParams.name };
}

interface Tracked {
  /** The request's id. */
  readonly id: number;
  /** The suggestion's number in the events. */
  readonly number: number;
  readonly source: GhostSuggestionSource;
  readonly keystrokeAt: number;
  firstGlyphAt: number | null;
  /** Characters typed through or accepted by word so far. */
  taken: number;
  /** Characters visible after the last step. */
  visible: number;
  /** What was visible after the last step (kept here, never sent without `text: true`). */
  text: string;
  shown: boolean;
  /** Whether listeners were told of a state that showed it (a streaming start waits for the next frame). */
  painted: boolean;
}

/**
 * Turns the machine's steps into `GhostTextEvent`s: what each suggestion
 * became. Framework-free; the controller calls `observe` once per step it
 * commits, and `accepted` when the app accepts.
 *
 * @example
 * const tracker = new GhostEventTracker(() => performance.now(), () => false);
 * const events = tracker.observe(before, after, input, ghostStateOf(after).suggestion, labels);
 */
export class GhostEventTracker {
  readonly #now: () => number;
  readonly #withText: () => boolean;
  #current: Tracked | null = null;
  #keystrokeAt = 0;
  /** The next move is what an acceptance made: `all` ends the suggestion, `word` is no typing through. */
  #accepting: 'all' | 'word' | null = null;
  /**
   * The request whose suggestion ended while the request went on (accepted
   * whole while it streamed, or taken off the screen by its own reply): what
   * it shows next is another suggestion.
   */
  #ended: number | null = null;
  #numbers = 0;

  constructor(now: () => number, withText: () => boolean) {
    this.#now = now;
    this.#withText = withText;
  }

  /** The events that `input` took the machine through (from `before` to `after`, showing `suggestion`). */
  observe(
    before: GhostMachine,
    after: GhostMachine,
    input: GhostMachineEvent,
    suggestion: string,
    labels: GhostEventLabels,
  ): GhostTextEvent[] {
    const now = this.#now();
    const events: GhostTextEvent[] = [];
    const { phase } = after;
    const request = phase.name === 'asking' || phase.name === 'shown' ? phase.request : null;
    let current = this.#current;
    const accepting = input.type === 'moved' ? this.#accepting : null;
    if (input.type === 'moved') this.#accepting = null;
    // Gone: another request (or none) is current, or this one shows nothing any more (its complete reply turned out an echo of the text).
    if (current && (current.id !== request?.id || (current.visible > 0 && !suggestion))) {
      this.#end(current, before, input, labels, events, now, accepting);
      if (current.id === request?.id) this.#ended = current.id;
      current = null;
    }
    if (input.type === 'moved') this.#keystrokeAt = now;
    // What a request streams after its suggestion was accepted whole is another suggestion, once there is some.
    if (!current && request && (request.id !== this.#ended || suggestion)) {
      const source = request.cached ? 'cache' : request.speculative ? 'speculation' : 'engine';
      current = {
        id: request.id,
        number: (this.#numbers += 1),
        source,
        keystrokeAt: this.#keystrokeAt,
        firstGlyphAt: null,
        taken: 0,
        visible: 0,
        text: '',
        shown: false,
        painted: false,
      };
    }
    this.#current = current;
    if (!current || !request) return events;
    const base = { ...labels, suggestion: current.number };
    if (input.type === 'moved' && current.visible && before.context && accepting !== 'word') {
      const typed = typedSince(before.context, input.context);
      if (typed) {
        current.taken += typed.length;
        events.push({ ...base, type: 'typedThrough', characters: typed.length });
      }
    }
    if (suggestion && current.firstGlyphAt === null) current.firstGlyphAt = now;
    current.visible = suggestion.length;
    current.text = suggestion;
    if (suggestion && request.done && !current.shown) events.push(this.#shown(current, base, now, now, suggestion));
    return events;
  }

  /** Listeners were told of the state the last step made: the current suggestion, if any of it showed, reached the screen. */
  painted(): void {
    if (this.#current?.visible) this.#current.painted = true;
  }

  /** The app accepted `inserted` (all of the suggestion or its next word): the `accepted` event, after `shown` if it was not sent yet. */
  accepted(how: 'all' | 'word', inserted: string, suggestion: string, labels: GhostEventLabels): GhostTextEvent[] {
    const current = this.#current;
    if (!current || !inserted) return [];
    const base = { ...labels, suggestion: current.number };
    const events: GhostTextEvent[] = [];
    if (!current.shown) events.push(this.#shown(current, base, this.#now(), null, suggestion));
    events.push({ ...base, type: 'accepted', how, characters: inserted.length, ...(this.#withText() ? { text: inserted } : {}) });
    current.taken += inserted.length;
    this.#accepting = how;
    // A word that was all of it (more still streaming) ends it too: what streams next is another suggestion.
    if (how === 'all' || inserted.length >= suggestion.length) {
      this.#current = null;
      this.#ended = current.id;
    }
    return events;
  }

  #shown(current: Tracked, base: GhostEventBase, now: number, wholeAt: number | null, suggestion: string): GhostTextEvent {
    current.shown = true;
    const firstGlyphMs = (current.firstGlyphAt ?? now) - current.keystrokeAt;
    return {
      ...base,
      type: 'shown',
      source: current.source,
      characters: current.taken + suggestion.length,
      firstGlyphMs,
      wholeMs: wholeAt === null ? null : wholeAt - current.keystrokeAt,
      ...(this.#withText() ? { text: suggestion } : {}),
    };
  }

  /** The suggestion is gone: say why, once. */
  #end(
    current: Tracked,
    before: GhostMachine,
    input: GhostMachineEvent,
    labels: GhostEventLabels,
    events: GhostTextEvent[],
    now: number,
    accepting: 'all' | 'word' | null,
  ): void {
    const base = { ...labels, suggestion: current.number };
    if (accepting === 'all') return; // `accepted` said it
    if (input.type === 'ended' && input.result.status === 'error') {
      events.push({ ...base, type: 'failed', error: input.result.error ?? null });
      return;
    }
    // Never on screen: gone before the frame that would have painted its first tokens.
    if (current.visible === 0 || current.firstGlyphAt === null || (!current.shown && !current.painted)) {
      events.push({ ...base, type: 'superseded' });
      return;
    }
    if (!current.shown) events.push(this.#shown(current, base, now, null, current.text));
    const from = before.context;
    if (input.type === 'moved' && from) {
      const typed = typedSince(from, input.context);
      if (typed && typed === current.text) {
        // Typed to its end: all of it taken, nothing refused.
        events.push({ ...base, type: 'typedThrough', characters: typed.length });
        return;
      }
      const moved = from.before + from.after === input.context.before + input.context.after;
      events.push({ ...base, type: 'rejected', reason: moved ? 'caretMoved' : 'typedOver', characters: current.visible });
    } else if (input.type === 'dismissed') {
      events.push({ ...base, type: 'rejected', reason: 'escape', characters: current.visible });
    } else {
      events.push({ ...base, type: 'superseded' });
    }
  }
}
