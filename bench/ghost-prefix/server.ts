/**
 * Ghost text at document scale against an OpenAI-compatible server with a
 * prefix cache (llama.cpp's `llama-server`): prefilled tokens per keystroke
 * and time to first token, today's prompt against the prefix-stable one, on
 * notes of several sizes, alternating the two prompts run by run.
 * A benchmark, not a test. Bundle with esbuild and run (see README.md):
 *
 *   node ghostPrefix.mjs --baseURL http://127.0.0.1:8080/v1 --model tiny --notes 2000,8000,32000 --pauses 40 --reps 5
 */
import { defaultGhostParams } from '@inkling/react';
import { openaiEngines } from '@inkling/openai';
import { EnginePool } from '@inkling/scheduler';
import { legacyGhostParams } from './legacyGhostParams.js';
import { type BuildGhostParams, replay } from './replay.js';
import { type VariantRun, report, summarize } from './summarize.js';
import { makeNote, typingSession } from './typingSession.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const baseURL = args.get('baseURL') ?? 'http://127.0.0.1:8080/v1';
const model = args.get('model') ?? 'tiny';
const notes = (args.get('notes') ?? '2000,8000,32000').split(',').map(Number);
const pauses = Number(args.get('pauses') ?? 40);
const reps = Number(args.get('reps') ?? 5);
// llama.cpp's server takes it; a random-weight model would otherwise stop at a random end-of-text token.
const extra = args.get('ignoreEos') === 'no' ? {} : { ignore_eos: true };

const variants: Array<[VariantRun['variant'], BuildGhostParams]> = [
  ['legacy', legacyGhostParams],
  ['prefix-stable', defaultGhostParams],
];

const pool = new EnginePool({ createEngine: openaiEngines({ baseURL, model, concurrency: 1 }), size: 1 });
await pool.load();
const runs: VariantRun[] = [];
for (const note of notes) {
  for (let rep = 0; rep < reps; rep += 1) {
    // A new session each round: llama.cpp keeps whole prompts it has seen, so a replay would hit them.
    const session = typingSession(makeNote(note, rep + 1), pauses, { seed: 100 + rep });
    // Alternate which prompt goes first, so neither always follows the other's cache.
    const order = rep % 2 === 0 ? variants : variants.toReversed();
    for (const [variant, build] of order) {
      runs.push({ note, variant, rep, pauses: await replay(pool, build, session, { extra }) });
      process.stdout.write('.');
    }
  }
}
await pool.unload();
const rows = summarize(runs);
console.log(`\n\n${report(rows)}\n`);
console.log(JSON.stringify({ baseURL, model, pauses, reps, rows }));
