/**
 * `pnpm --filter @inkling/bench wllama-meter`: what following llama.cpp's
 * prompt cache costs a wllama engine per ghost request, in Node: the
 * engine's `promptText` + `PromptCacheMeter.send`/`settle` over the
 * wllama-memory session (1,000 requests on a 2,000-character note, an edit
 * mid-note every 8th), against the same loop without the meter (building the
 * prompt only) and against itself, alternating, with min/median/max.
 *
 *   --keystrokes=1000  --note=2000  --editEvery=8  --reps=7  --limitMiB=256 (the engine's default)
 */
import { defaultGhostParams } from '@inkling/react';
import { PromptCacheMeter, promptText } from '../../packages/wllama/src/promptCacheMeter.js';
import { makeNote, typingSession } from '../ghost-prefix/typingSession.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const keystrokes = Number(arg('keystrokes') ?? 1000);
const noteChars = Number(arg('note') ?? 2000);
const editEvery = Number(arg('editEvery') ?? 8);
const reps = Number(arg('reps') ?? 7);
const LIMIT_BYTES = Number(arg('limitMiB') ?? 256) * 1024 * 1024;

const pauses = typingSession(makeNote(noteChars, 3), keystrokes, { seed: 5, editEvery });
const requests = pauses.map(({ text, caret }) =>
  defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 8 }),
);

/** Microseconds per request; `meter` off builds the prompts' text only. */
function pass(withMeter: boolean): { us: number; prompts: number; mib: number; restarts: number } {
  const meter = new PromptCacheMeter(6144);
  let restarts = 0;
  let sink = 0;
  const began = process.hrtime.bigint();
  for (const params of requests) {
    const text = promptText(params.messages);
    if (withMeter) {
      meter.send(text);
      meter.settle({ prompt_tokens: Math.round(text.length / 4), completion_tokens: 8 });
      // As the engine does at its default limit: a fresh worker, an empty cache.
      if (meter.bytes > LIMIT_BYTES) {
        meter.reset();
        restarts += 1;
      }
    }
    sink += text.length;
  }
  const us = Number(process.hrtime.bigint() - began) / 1000 / requests.length;
  if (sink < 0) console.log(sink);
  return { us, prompts: meter.prompts, mib: meter.bytes / 1024 / 1024, restarts };
}

const stats = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return `min ${s[0]!.toFixed(2)} / median ${s[Math.floor(s.length / 2)]!.toFixed(2)} / max ${s.at(-1)!.toFixed(2)}`;
};
// warm-up
for (let i = 0; i < 3; i += 1) {
  pass(true);
  pass(false);
}
const base: number[] = [];
const base2: number[] = [];
const metered: number[] = [];
let last = { prompts: 0, mib: 0, restarts: 0 };
for (let r = 0; r < reps; r += 1) {
  const order = r % 2 === 0 ? [false, true, false] : [true, false, false];
  const seen: number[] = [];
  for (const m of order) {
    const result = pass(m);
    if (m) {
      metered.push(result.us);
      last = result;
    } else seen.push(result.us);
  }
  base.push(seen[0]!);
  base2.push(seen[1]!);
}
const med = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${requests.length} requests, ${reps} alternating reps, µs per request (prompt text built in every loop):`);
console.log(`  without the meter   ${stats(base)}`);
console.log(`  without, again      ${stats(base2)}  (noise: ratio ${(med(base2) / med(base)).toFixed(2)})`);
console.log(
  `  with the meter      ${stats(metered)}  (+${(med(metered) - med(base)).toFixed(2)} µs, ratio ${(med(metered) / med(base)).toFixed(2)})`,
);
console.log(
  `  the meter ended at ${last.prompts} cached prompts, ${last.mib.toFixed(1)} MiB estimated, after ${last.restarts} restarts (6,144 bytes a token, 4 characters a token)`,
);
