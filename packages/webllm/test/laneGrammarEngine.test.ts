import { type ChatCompletionChunk, InvalidSchemaError, type StreamingChatCompletionRequest } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { type LaneStream, startLanes } from '../src/worker/laneEngine.js';
import { startGrammars } from '../src/worker/laneGrammar.js';
import { JSON_ALPHABET, fakeLanePipeline } from './fakeLanePipeline.js';
import { nodeXGrammar } from './nodeXGrammar.js';

const schema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, n: { enum: [0, 1, 2] } },
  required: ['ok', 'n'],
  additionalProperties: false,
} as const;
const ask = (content: string, more: Partial<StreamingChatCompletionRequest> = {}): StreamingChatCompletionRequest => ({
  messages: [{ role: 'user', content }],
  stream: true,
  temperature: 0,
  max_tokens: 8,
  ...more,
});
const json = (content: string, s: object = schema, more: Partial<StreamingChatCompletionRequest> = {}) =>
  ask(content, { max_tokens: 80, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: s as never } }, ...more });

async function read(stream: LaneStream) {
  const chunks: ChatCompletionChunk[] = [];
  for (let step = await stream.next(); !step.done; step = await stream.next()) chunks.push(step.value);
  return {
    text: chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''),
    finish: chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason,
  };
}

/** Lanes over the JSON vocabulary, with xgrammar (or without grammars). */
async function lanesOf(count: number, withGrammars = true) {
  const fake = fakeLanePipeline({ alphabet: JSON_ALPHABET });
  const grammars = withGrammars ? await startGrammars(nodeXGrammar, fake.pipeline) : undefined;
  return { fake, lanes: startLanes(fake.pipeline, count, grammars ? { grammars } : {}) };
}

function expectValid(text: string) {
  const value = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(value).toSorted()).toEqual(['n', 'ok']);
  expect(typeof value.ok).toBe('boolean');
  expect([0, 1, 2]).toContain(value.n);
}

describe('lanes: JSON-schema jobs', () => {
  it('runs a JSON-schema job on a lane beside plain jobs: it parses and validates, the others write what they write alone', async () => {
    const solo = await lanesOf(2);
    const plainAlone = await read(solo.lanes.open(ask('plain one')));
    const jsonAlone = await read((await lanesOf(2)).lanes.open(json('give json')));
    expect(jsonAlone.finish).toBe('stop');
    expectValid(jsonAlone.text);

    const { fake, lanes } = await lanesOf(4);
    expect(lanes.refuses(json('x'))).toBeUndefined();
    const [together, plain, second] = await Promise.all([
      read(lanes.open(json('give json'))),
      read(lanes.open(ask('plain one'))),
      read(lanes.open(json('more json'))),
    ]);
    // Greedy: the same object as the job alone on the lanes; the plain job untouched by its neighbours' masks.
    expect(together).toEqual(jsonAlone);
    expect(plain).toEqual(plainAlone);
    expectValid(second.text);
    // They shared decode steps.
    expect(Math.max(...fake.forwards.filter((f) => f.fn === 'batch_decode').map((f) => f.seqs.length))).toBe(3);
  });

  it('masks every row of a constrained job: unconstrained, the same prompt does not write JSON', async () => {
    const { lanes } = await lanesOf(2);
    const free = await read(lanes.open(ask('give json', { max_tokens: 40 })));
    expect(() => JSON.parse(free.text)).toThrow(SyntaxError);
    const sampled = await read(lanes.open(json('give json', schema, { temperature: 1, seed: 3 })));
    expectValid(sampled.text);
  });

  it('fails a bad schema with InvalidSchemaError for that job alone; the lane beside it goes on', async () => {
    const { lanes } = await lanesOf(3);
    const plainAlone = await read((await lanesOf(2)).lanes.open(ask('plain one')));
    const bad = lanes.open(json('bad', { type: 'strnig' }));
    const broken = lanes.open(ask('x', { response_format: { type: 'grammar', grammar: 'root ::= ' } } as never));
    const plain = read(lanes.open(ask('plain one')));
    await expect(bad.next()).rejects.toBeInstanceOf(InvalidSchemaError);
    await expect(broken.next()).rejects.toBeInstanceOf(InvalidSchemaError);
    expect(await plain).toEqual(plainAlone);
    // The lanes the bad jobs held are free again.
    expectValid((await Promise.all([read(lanes.open(json('a'))), read(lanes.open(json('b'))), read(lanes.open(json('c')))]))[2].text);
  });

  it('without grammars the lanes refuse JSON-schema jobs, saying why', async () => {
    const { lanes } = await lanesOf(2, false);
    expect(lanes.grammarOff).toMatch(/WebLLM’s own path \(no grammars were given to the lanes\)/);
    expect(lanes.refuses(json('x'))).toBe(lanes.grammarOff);
    expect(lanes.refuses(ask('x', { response_format: { type: 'json_object' } }))).toBe(lanes.grammarOff);
    expect(lanes.refuses(ask('x', { response_format: { type: 'grammar', grammar: 'root ::= "a"' } } as never))).toBe(lanes.grammarOff);
    expect(lanes.refuses(ask('x', { response_format: { type: 'text' } } as never))).toBeUndefined();
    expect(lanes.refuses(ask('x'))).toBeUndefined();
  });
});
