// Not a test: schema-constrained jobs through @inkling/openai against a real
// llama.cpp server (its json_schema -> grammar path), on a random-weight model,
// where only the constraint can make an answer valid. Run as in README.md:
//   llama-server -m tiny.gguf --port 8080 -np 1 &
//   npx tsx --conditions=@inkling/source openai-server/structuredOutput.ts --baseURL http://127.0.0.1:8080/v1
import { EnginePool, type JsonSchema } from '@inkling/scheduler';
import { validateJson } from '@inkling/scheduler/engine';
import { openaiEngines } from '@inkling/openai';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const baseURL = arg('baseURL', 'http://127.0.0.1:8080/v1');
const runs = Number(arg('runs', '20'));

const word = { type: 'string', pattern: '^[a-z ]{1,12}$' } as const;
const SCHEMAS: Record<string, JsonSchema> = {
  task: {
    type: 'object',
    properties: { title: word, priority: { enum: ['low', 'high'] }, hours: { type: 'integer', minimum: 1, maximum: 8 } },
    required: ['title', 'priority', 'hours'],
  },
  list: { type: 'object', properties: { items: { type: 'array', minItems: 1, maxItems: 3, items: word } }, required: ['items'] },
  places: {
    type: 'object',
    properties: { city: { enum: ['Zürich', 'Kraków', '東京'] }, ok: { type: 'boolean' } },
    required: ['city', 'ok'],
  },
};

const pool = new EnginePool({ createEngine: openaiEngines({ baseURL, model: 'tiny' }), size: 1 });
await pool.load();
const names = Object.keys(SCHEMAS);
let valid = 0;
for (let i = 0; i < runs; i += 1) {
  const name = names[i % names.length] as string;
  const schema = SCHEMAS[name] as JsonSchema;
  const result = await pool.submit({
    params: {
      messages: [{ role: 'user', content: `Answer ${i} as JSON.` }],
      max_tokens: 200,
      seed: i,
      response_format: { type: 'json_schema', json_schema: { name, schema } },
    },
  });
  let problem: string | undefined = result.error?.message;
  if (!problem) {
    try {
      problem = validateJson(JSON.parse(result.text), schema)?.message;
    } catch {
      problem = `not JSON: ${result.text}`;
    }
  }
  if (!problem) valid += 1;
  console.log(`${name} #${i}: ${problem ? `INVALID ${problem}` : 'valid'} ${JSON.stringify(result.text)}`);
}
console.log(`${valid} of ${runs} valid against their schemas`);
await pool.unload();
