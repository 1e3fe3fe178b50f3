import type { JsonSchema, JsonSchemaObject } from '../jsonSchema.js';
import type { StreamingChatCompletionRequest, ToolCall } from '../types.js';
import { UnsupportedConstraintError } from '../schemaErrors.js';
import { seededRandom } from './seededRandom.js';

const WORDS = ['plan', 'café', 'review', 'Zoë', 'budget', 'naïve', 'launch', '日本', 'draft', 'Ærø', 'notes', 'señal'];

/** A seed from a text, so one prompt gives one object on every run. */
export function seedOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/**
 * A value that follows `schema` (one `checkJsonSchema` accepts), drawn from
 * `seed`: what a fake engine with constrained decoding answers. Strings mix
 * ASCII and non-ASCII words, or with `source`, runs of one to six words of
 * that text (capitalised ones for a property named like a person: `owner`,
 * `name`, `person`, `assignee`); sizes stay within the schema's bounds.
 *
 * @throws UnsupportedConstraintError for a `pattern` with no `examples` to take
 *   a string from (a fake cannot invert a regular expression).
 */
export function schemaInstance(schema: JsonSchema, seed: number, source?: string): unknown {
  return new InstanceDraw(schema, seed, source).draw(schema, 0);
}

/** One drawing of `schemaInstance`: its random numbers, and the sentences and names of its source text. */
class InstanceDraw {
  readonly #schema: JsonSchema;
  readonly #random: () => number;
  readonly #sentences: string[][];
  readonly #names: string[];

  constructor(schema: JsonSchema, seed: number, source: string | undefined) {
    this.#schema = schema;
    this.#random = seededRandom(seed);
    this.#sentences = (source ?? '')
      .split(/[.!?\n]+/)
      .map((sentence) => sentence.match(/[\p{L}\p{N}'’-]+/gu) ?? [])
      .filter((words) => words.length > 0);
    this.#names = [...new Set(this.#sentences.flatMap((words) => words.slice(1)).filter((word) => /^\p{Lu}\p{Ll}/u.test(word)))];
  }

  draw(node: JsonSchema, depth: number, key = ''): unknown {
    if (node === true) return this.#pick(WORDS);
    if (node === false) throw new UnsupportedConstraintError('The schema allows no value here (false), so nothing can be generated.');
    if (node.$ref !== undefined) return this.draw(resolve(this.#schema, node.$ref), depth + 1);
    if (node.const !== undefined) return node.const;
    if (node.enum !== undefined) return this.#pick(node.enum);
    const options = node.anyOf ?? node.oneOf;
    if (options !== undefined) return this.draw(this.#pick(options), depth + 1);
    const type = Array.isArray(node.type) ? this.#pick(node.type) : (node.type ?? (node.properties ? 'object' : 'string'));
    switch (type) {
      case 'object':
        return this.#object(node, depth);
      case 'array':
        return this.#array(node, depth);
      case 'integer':
      case 'number': {
        const low = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 0);
        const high = node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : low + 100);
        const whole = this.#between(Math.ceil(low), Math.floor(high));
        return type === 'number' && whole < high ? whole + Math.round(this.#random() * 100) / 200 : whole;
      }
      case 'boolean':
        return this.#random() < 0.5;
      case 'null':
        return null;
      default:
        return this.#string(node, key);
    }
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)] as T;
  }

  #between(min: number, max: number): number {
    return max <= min ? min : min + Math.floor(this.#random() * (max - min + 1));
  }

  /** A run of one to six words of `source`; a name for a person's property. */
  #phrase(person: boolean): string {
    if (person && this.#names.length > 0) return this.#pick(this.#names);
    const words = this.#pick(this.#sentences);
    const from = Math.floor(this.#random() * Math.max(1, words.length - 2));
    return words.slice(from, from + 1 + Math.floor(this.#random() * 6)).join(' ');
  }

  #array(node: JsonSchemaObject, depth: number): unknown[] {
    const min = node.minItems ?? 0;
    const max = node.maxItems ?? Math.max(min, depth > 2 ? 1 : 3);
    const prefix = node.prefixItems ?? [];
    const length = Math.max(prefix.length, this.#between(Math.max(min, Math.min(1, max)), max));
    return Array.from({ length }, (_, i) => this.draw((i < prefix.length ? prefix[i] : node.items) ?? true, depth + 1));
  }

  #object(node: JsonSchemaObject, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(node.required ?? []);
    for (const [name, sub] of Object.entries(node.properties ?? {})) {
      if (required.has(name) || this.#random() < 0.6) out[name] = this.draw(sub, depth + 1, name);
    }
    return out;
  }

  #string(node: JsonSchemaObject, key: string): string {
    if (node.pattern !== undefined) {
      const example = node.examples?.find((e) => typeof e === 'string');
      if (example === undefined)
        throw new UnsupportedConstraintError(
          `The fake engine cannot write a string matching /${node.pattern}/; give the schema an example string in "examples".`,
        );
      return example as string;
    }
    const min = node.minLength ?? 0;
    const max = node.maxLength ?? Math.max(min, 40);
    let text = '';
    const person = /owner|name|person|assignee|who/i.test(key);
    if (max > 0) {
      do text += (text ? ' ' : '') + (this.#sentences.length > 0 ? this.#phrase(person) : this.#pick(WORDS));
      while ([...text].length < min);
    }
    while ([...text].length > max) text = [...text].slice(0, max).join('');
    return text;
  }
}

function resolve(root: JsonSchema, ref: string): JsonSchema {
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  return node as JsonSchema;
}

/** Splits JSON text into pieces of at most four characters, as a tokenizer would stream it. */
export function jsonTokens(text: string): string[] {
  return [...text].reduce<string[]>((pieces, char, i) => {
    if (i % 4 === 0) pieces.push(char);
    else pieces[pieces.length - 1] += char;
    return pieces;
  }, []);
}

/**
 * The tool calls a fake engine with tool calling answers with: when the
 * request offers `tools` and the conversation's last message is the user's,
 * one call of the tool the message names (else the first), its arguments
 * drawn from the tool's parameter schema; otherwise none (after a tool's
 * result the engine answers in words).
 */
export function fakeToolCalls(request: StreamingChatCompletionRequest): ToolCall[] | undefined {
  const tools = (request.tools as Array<{ type?: string; function?: { name?: string; parameters?: JsonSchema } }> | undefined) ?? [];
  const last = request.messages.at(-1);
  if (tools.length === 0 || last?.role !== 'user') return undefined;
  const said = typeof last.content === 'string' ? last.content : '';
  const tool = tools.find((t) => t.function?.name !== undefined && said.includes(t.function.name)) ?? tools[0];
  const name = tool?.function?.name ?? 'tool';
  const seed = seedOf(JSON.stringify(request.messages));
  const args = schemaInstance(tool?.function?.parameters ?? { type: 'object' }, seed);
  return [{ id: `call_${seed.toString(36)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }];
}
