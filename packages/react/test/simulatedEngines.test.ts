// @vitest-environment node
import { EnginePool } from '@inkling/scheduler';
import { expect, it } from 'vitest';
import { defaultGhostParams, defaultTranslateParams } from '../src/index.js';
import { pseudoTranslate, simulatedEngines, simulatedReply } from '../src/testing/index.js';

const ghost = (before: string, after = '') => simulatedReply({ ...defaultGhostParams({ before, after, maxTokens: 24 }), stream: true });
const translate = (text: string, to: string, from?: string) =>
  simulatedReply({ ...defaultTranslateParams({ text, to, from }), stream: true });

it('continues ghost text plausibly, deterministically, differently for different text', () => {
  expect(ghost('Thanks for the')).toBe(ghost('Thanks for the'));
  expect(ghost('Thanks for the')).toMatch(/^ [a-z]/);
  expect(ghost('Thanks for the ')).toMatch(/^[a-z]/);
  expect(ghost('See you tomorrow')).not.toBe(ghost('Thanks for the'));
  expect(ghost('We had a good meet')).toMatch(/^ing /); // finishes a half-typed word
  expect(ghost('Done. ')).toMatch(/^[A-Z]/); // a new sentence
  expect(ghost('')).toBe('');
  expect(ghost('Hello', ' world').split(' ').length).toBeLessThanOrEqual(4); // mid text: a few words
});

it('pseudo-translates into French, Spanish and German, and marks other languages', () => {
  expect(translate('Good morning, team', 'fr')).toBe('Bon matin, équipe');
  expect(translate('Thank you', 'es', 'en')).toBe('Gracias tú');
  expect(translate('Hello world', 'German')).toBe('Hallo Welt');
  expect(translate('Hello', 'ja')).toBe('[Japanese: Héllö]');
  expect(pseudoTranslate('Hello', 'Klingon')).toBe('[Klingon: Héllö]');
});

it('answers other requests with a reply that says it is simulated', () => {
  expect(simulatedReply({ messages: [{ role: 'user', content: 'Hi there' }], stream: true })).toMatch(/simulated.*Hi there/);
});

it('streams through a pool, with its defaults overridable and undefined options ignored', async () => {
  const createEngine = simulatedEngines({ loadMs: 0, prefillMs: 0, tokenMs: undefined });
  const pool = new EnginePool({ createEngine });
  await pool.load();
  const result = await pool.submit({ params: defaultTranslateParams({ text: 'See you soon', to: 'fr', from: undefined }) });
  expect(result).toMatchObject({ status: 'done', text: 'Voir vous bientôt' });
  await pool.unload();
});

it("draws a structured answer's strings from the note it was given: its words and its people", async () => {
  const note = 'Trip to Lisbon. Maria books the train tickets. Tom asks about the hotel near the river.';
  const schema = {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        minItems: 3,
        maxItems: 3,
        items: { type: 'object', properties: { task: { type: 'string' }, owner: { type: 'string' } }, required: ['task', 'owner'] },
      },
    },
    required: ['items'],
  } as const;
  const pool = new EnginePool({ createEngine: simulatedEngines({ tokenMs: 0, prefillMs: 0, loadMs: 0 }), size: 1 });
  await pool.load();
  const result = await pool.submit({
    params: {
      messages: [
        { role: 'system', content: 'List the action items in the note.' },
        { role: 'user', content: note },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'actions', schema } },
    },
  });
  const asked = await pool.submit({
    params: {
      messages: [{ role: 'user', content: `List the action items in this note:\n${note}` }],
      response_format: { type: 'json_schema', json_schema: { name: 'actions', schema } },
    },
  });
  const { items } = JSON.parse(result.text) as { items: Array<{ task: string; owner: string }> };
  // An instruction line before the note is not the note: its words are not drawn.
  const fromPrompt = JSON.parse(asked.text) as { items: Array<{ task: string; owner: string }> };
  items.push(...fromPrompt.items);
  expect(items).toHaveLength(6);
  const words = new Set(note.match(/[\p{L}']+/gu));
  for (const { task, owner } of items) {
    expect(task.split(' ').every((word) => words.has(word))).toBe(true);
    expect(['Lisbon', 'Maria', 'Tom']).toContain(owner);
  }
  await pool.unload();
});
