import { describe, expect, it } from 'vitest';
import { Subscribable } from '../src/index.js';

class Counted extends Subscribable {
  readonly events: string[] = [];

  protected override onSubscribe(): void {
    this.events.push('first');
  }

  protected override onUnsubscribe(): void {
    this.events.push('last');
  }
}

function listener(): void {}

describe('Subscribable', () => {
  it('calls onSubscribe for the first listener and onUnsubscribe when the last one leaves', () => {
    const subject = new Counted();
    const a = subject.subscribe(() => {});
    const b = subject.subscribe(() => {});
    expect(subject.events).toEqual(['first']);
    a();
    expect(subject.hasListeners()).toBe(true);
    b();
    expect(subject.events).toEqual(['first', 'last']);
    expect(subject.hasListeners()).toBe(false);
  });

  it('counts a listener once however often it subscribes, and an unsubscribe twice once', () => {
    const subject = new Counted();
    const once = subject.subscribe(listener);
    const again = subject.subscribe(listener);
    once();
    again();
    once();
    expect(subject.events).toEqual(['first', 'last']);
    subject.subscribe(() => {});
    expect(subject.events).toEqual(['first', 'last', 'first']);
  });
});
