// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { InklingError } from '../src/index.js';
import {
  CallAnswers,
  type CallCancel,
  CallCancelledError,
  CallChannel,
  type CallMessage,
  type CallReply,
  answerCall,
  decodeError,
  encodeError,
  isCallAnswer,
  isCallCancel,
  isCallMessage,
} from '../src/engine.js';

/** A channel whose calls land in `sent`, and the answering side's replies, as they would cross. */
function wired() {
  const sent: (CallMessage | CallCancel)[] = [];
  const channel = new CallChannel((message) => sent.push(structuredClone(message)));
  const answer = (rid: number, run: () => unknown) => answerCall(rid, run, (reply: CallReply) => channel.receive(structuredClone(reply)));
  return { sent, channel, answer };
}

describe('CallChannel', () => {
  it('numbers each call and settles it with its own reply, in any order', async () => {
    const { sent, channel, answer } = wired();
    const load = channel.call('load', { model: 'tiny' });
    const unload = channel.call('unload');
    expect(sent).toEqual([
      { t: 'call', rid: 1, op: 'load', input: { model: 'tiny' } },
      { t: 'call', rid: 2, op: 'unload' },
    ]);
    await answer(2, () => undefined);
    await answer(1, async () => 2);
    await expect(load).resolves.toBe(2);
    await expect(unload).resolves.toBeUndefined();
    expect(channel.size).toBe(0);
    // A reply for no waiting call is not ours.
    expect(channel.receive({ t: 'reply', rid: 1, value: 3 })).toBe(false);
  });

  it('rebuilds an error the answering side threw, at once or later, with its class', async () => {
    class ModelGoneError extends InklingError {
      override name = 'ModelGoneError';
    }
    const sent: (CallMessage | CallCancel)[] = [];
    const channel = new CallChannel((message) => sent.push(message), {
      decode: (wire) => decodeError(wire, { ModelGoneError }),
    });
    const replies: CallReply[] = [];
    const failing = channel.call('load');
    await answerCall(
      1,
      () => {
        throw new ModelGoneError('no such model');
      },
      (reply) => replies.push(reply),
    );
    expect(replies[0]).toMatchObject({ t: 'reply', rid: 1, error: { name: 'ModelGoneError', message: 'no such model' } });
    expect('value' in replies[0]!).toBe(false);
    channel.receive(structuredClone(replies[0]!));
    const error = await failing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelGoneError);
    expect((error as Error).message).toBe('no such model');
  });

  it('hands progress to its call only, and a throwing listener does not break the channel', async () => {
    const { channel, answer } = wired();
    const reports: unknown[] = [];
    const load = channel.call('load', undefined, { onProgress: (report) => reports.push(report) });
    const other = channel.call(
      'configure',
      {},
      {
        onProgress: () => {
          throw new Error('listener bug');
        },
      },
    );
    const reported: unknown[] = [];
    const original = globalThis.reportError;
    globalThis.reportError = (error: unknown) => reported.push(error);
    try {
      expect(channel.receive({ t: 'progress', rid: 1, report: { progress: 0.5 } })).toBe(true);
      expect(channel.receive({ t: 'progress', rid: 2, report: {} })).toBe(true);
      expect(channel.receive({ t: 'progress', rid: 9, report: {} })).toBe(false);
    } finally {
      globalThis.reportError = original;
    }
    expect(reports).toEqual([{ progress: 0.5 }]);
    expect(reported).toHaveLength(1);
    await answer(1, () => 1);
    await answer(2, () => 0);
    await expect(Promise.all([load, other])).resolves.toEqual([1, 0]);
  });

  it('rejects every waiting call when the other side dies, and stays usable', async () => {
    const { channel, answer } = wired();
    const a = channel.call('load');
    const b = channel.call('unload');
    const crash = new Error('worker died');
    channel.rejectAll(crash);
    await expect(a).rejects.toBe(crash);
    await expect(b).rejects.toBe(crash);
    const c = channel.call('load');
    await answer(3, () => 7);
    await expect(c).resolves.toBe(7);
  });

  it('on close rejects waiting and later calls with a typed cancel error, and sends nothing more', async () => {
    const { sent, channel } = wired();
    const waiting = channel.call('load');
    channel.close();
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallCancelledError);
    expect((error as CallCancelledError).kind).toBe('cancelled');
    const late = channel.call('unload');
    await expect(late).rejects.toBe(error);
    expect(sent).toHaveLength(1);
    // A reason given at close is the one every call gets.
    const crashed = new CallChannel(() => {});
    const pending = crashed.call('load');
    const death = new Error('host gone');
    crashed.close(death);
    await expect(pending).rejects.toBe(death);
  });

  it('keeps what a new connection must hear again, and lets a call be ended or dropped here', async () => {
    const { sent, channel } = wired();
    const load = channel.call('load', { model: 'tiny' });
    const configure = channel.call('configure', { decodeSteps: 4 });
    const stream = channel.open('chat', { messages: [] });
    expect(channel.pending().map((call) => [call.rid, call.op])).toEqual([
      [1, 'load'],
      [2, 'configure'],
      [3, 'chat'],
    ]);
    sent.length = 0;
    channel.resend((call) => call.op === 'chat');
    expect(sent).toEqual([{ t: 'call', rid: 3, op: 'chat', input: { messages: [] } }]);
    sent.length = 0;
    channel.resend();
    expect(sent).toEqual([
      { t: 'call', rid: 1, op: 'load', input: { model: 'tiny' } },
      { t: 'call', rid: 2, op: 'configure', input: { decodeSteps: 4 } },
      { t: 'call', rid: 3, op: 'chat', input: { messages: [] } },
    ]);
    expect(channel.settle(2, 0)).toBe(true);
    await expect(configure).resolves.toBe(0);
    channel.cancel(stream.rid);
    expect(sent.at(-1)).toEqual({ t: 'close', rid: stream.rid });
    expect(channel.receive({ t: 'reply', rid: 3 })).toBe(false);
    expect(channel.size).toBe(1);
    channel.receive({ t: 'reply', rid: 1, value: 1 });
    await expect(load).resolves.toBe(1);
  });

  it('tells its messages from anything else on the port', () => {
    expect(isCallMessage({ t: 'call', rid: 1, op: 'load' })).toBe(true);
    expect(isCallMessage({ t: 'call', rid: '1', op: 'load' })).toBe(false);
    expect(isCallMessage({ t: 'call', rid: 1.5, op: 'load' })).toBe(false);
    expect(isCallMessage({ type: 'load', id: 1 })).toBe(false);
    expect(isCallAnswer({ t: 'reply', rid: 1, error: encodeError(new Error('x')) })).toBe(true);
    expect(isCallAnswer({ t: 'progress', rid: 1, report: {} })).toBe(true);
    expect(isCallAnswer({ kind: 'return', uuid: 'x' })).toBe(false);
    expect(isCallAnswer(null)).toBe(false);
  });
});

/** An asking channel and an answering `CallAnswers`, their messages crossing as clones. */
function both() {
  const sent: (CallMessage | CallCancel)[] = [];
  let answers: CallAnswers | undefined;
  const runs = new Map<number, AbortSignal>();
  const channel = new CallChannel((message) => {
    const data = structuredClone(message);
    sent.push(data);
    if (isCallMessage(data)) {
      void answers!.answer(data.rid, (signal) => {
        runs.set(data.rid, signal);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(`stopped: ${String(signal.reason)}`)));
      });
    } else if (isCallCancel(data)) answers!.cancel(data.rid, data.reason);
  });
  const replies: CallReply[] = [];
  answers = new CallAnswers((reply) => {
    replies.push(reply);
    channel.receive(structuredClone(reply));
  });
  return { sent, channel, answers, runs, replies };
}

describe('a call cancelled across the channel', () => {
  it("stops the answering side's run with the reason, and drops the reply that still comes", async () => {
    const { sent, channel, answers, runs, replies } = both();
    const { rid, answer } = channel.open('chat', { messages: [] });
    let settled = false;
    void answer.then(
      () => (settled = true),
      () => (settled = true),
    );
    expect(answers.size).toBe(1);
    expect(answers.has(rid)).toBe(true);
    channel.cancel(rid, 'supersede');
    expect(sent.at(-1)).toEqual({ t: 'close', rid, reason: 'supersede' });
    expect(runs.get(rid)?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The run ended and its reply was sent, but the asker had let the call go.
    expect(replies).toEqual([{ t: 'reply', rid, value: 'stopped: supersede' }]);
    expect(settled).toBe(false);
    expect(channel.size).toBe(0);
    expect(answers.size).toBe(0);
    // A second cancel, or one for a call never made, sends nothing.
    const count = sent.length;
    channel.cancel(rid);
    channel.cancel(99);
    expect(sent).toHaveLength(count);
    expect(answers.cancel(rid)).toBe(false);
  });

  it('sends a cancel without a reason when none is given; cancelAll stops every run', async () => {
    const { sent, channel, answers, runs } = both();
    const one = channel.open('chat', 1);
    channel.open('chat', 2);
    channel.cancel(one.rid);
    expect(sent.at(-1)).toEqual({ t: 'close', rid: one.rid });
    expect(runs.get(one.rid)?.reason).toBeInstanceOf(DOMException);
    answers.cancelAll('gone');
    expect(runs.get(2)?.reason).toBe('gone');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answers.size).toBe(0);
  });

  it('tells a cancel from anything else on the port', () => {
    expect(isCallCancel({ t: 'close', rid: 3 })).toBe(true);
    expect(isCallCancel({ t: 'close', key: 'x' })).toBe(false);
    expect(isCallCancel({ t: 'cancel', rid: 3 })).toBe(false);
    expect(isCallCancel({ t: 'call', rid: 3, op: 'x' })).toBe(false);
    expect(isCallCancel(undefined)).toBe(false);
  });
});
