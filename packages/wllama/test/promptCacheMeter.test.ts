import { describe, expect, it } from 'vitest';
import { PromptCacheMeter, commonPrefixLength, promptText } from '../src/promptCacheMeter.js';

const NOTE = 'The weather today is mild and the meeting moved to Friday, so the report can wait a little. '.repeat(10);
/** One character, one token, so the figures below read as tokens; 10 bytes a token. */
const usageOf = (prompt: string, completion = 0) => ({ prompt_tokens: prompt.length, completion_tokens: completion });

function ask(meter: PromptCacheMeter, prompt: string, completion = 0): void {
  meter.send(prompt);
  meter.settle(usageOf(prompt, completion));
}

describe('PromptCacheMeter (llama.cpp host prompt cache, one slot)', () => {
  it('caches nothing while the prompt grows at its end (typing at the end of a note)', () => {
    const meter = new PromptCacheMeter(10);
    for (let i = 100; i <= NOTE.length; i += 37) ask(meter, NOTE.slice(0, i), 8);
    expect(meter.bytes).toBe(0);
    expect(meter.prompts).toBe(0);
  });

  it('saves the slot, answer tokens included, when a new prompt keeps less than half of it (an edit early in the note)', () => {
    const meter = new PromptCacheMeter(10);
    ask(meter, NOTE, 8);
    const edited = `${NOTE.slice(0, 200)}X${NOTE.slice(200)}`;
    ask(meter, edited);
    expect(meter.prompts).toBe(1);
    expect(meter.bytes).toBe((NOTE.length + 8) * 10);
  });

  it('saves nothing when the new prompt keeps more than half (an edit near the end)', () => {
    const meter = new PromptCacheMeter(10);
    ask(meter, NOTE);
    ask(meter, `${NOTE.slice(0, NOTE.length - 50)}X${NOTE.slice(NOTE.length - 50)}`);
    expect(meter.bytes).toBe(0);
  });

  it('grows by one prompt per distinct early edit, and restores (removes) a cached prompt the new one mostly keeps', () => {
    const meter = new PromptCacheMeter(1);
    const variant = (i: number) => `${NOTE.slice(0, 100)}${i}${NOTE.slice(100)}`;
    ask(meter, NOTE);
    for (let i = 1; i <= 5; i += 1) ask(meter, `${i}${NOTE}`);
    // NOTE, then 1..4 each saved when the next replaced it.
    expect(meter.prompts).toBe(5);
    // Back to the first text: llama.cpp loads it from the cache, which then holds one fewer,
    // and saves the slot it replaced ("5…"): the count stays.
    ask(meter, NOTE);
    expect(meter.prompts).toBe(5);
    ask(meter, variant(7));
    expect(meter.prompts).toBe(6);
  });

  it('does not save a prompt a cached one already contains, and drops cached prompts the saved one contains', () => {
    const meter = new PromptCacheMeter(1);
    ask(meter, NOTE.slice(0, 600));
    ask(meter, `X${NOTE}`); // saves NOTE[0,600)
    ask(meter, NOTE); // saves X…; restores NOTE[0,600) (keeps all of it)
    expect(meter.prompts).toBe(1);
    ask(meter, `Y${NOTE}`); // saves NOTE, which contains NOTE[0,600): nothing else to drop (it left on restore)
    expect(meter.prompts).toBe(2);
  });

  it('keeps the token estimate for an aborted call (no usage) and forgets everything on reset', () => {
    const meter = new PromptCacheMeter(10);
    ask(meter, NOTE);
    meter.send(`A${NOTE}`);
    meter.settle(undefined);
    meter.send(`B${NOTE}`);
    // The aborted prompt's tokens are estimated from the last usage (one a character here).
    expect(meter.bytes).toBe(NOTE.length * 10 + (NOTE.length + 1) * 10);
    meter.reset();
    expect(meter.bytes).toBe(0);
    meter.send(`C${NOTE}`);
    expect(meter.bytes).toBe(0);
  });
});

describe('promptText and commonPrefixLength', () => {
  it('joins roles and text parts in order', () => {
    expect(
      promptText([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }] },
      ]),
    ).toBe('system\nBe brief.\n\nuser\nab\n\n');
    expect(commonPrefixLength('abcd', 'abXd')).toBe(2);
    expect(commonPrefixLength('', 'a')).toBe(0);
  });
});
