import { MAX_JSON_DEPTH } from '@inkling/scheduler/engine';

/**
 * What `parsePartialJson` makes of a text: `value` is `undefined` while
 * nothing can be shown yet; `complete` once the text is one whole JSON value.
 */
export interface PartialJson {
  readonly value: unknown;
  readonly complete: boolean;
}

/** Nothing of this value can be shown yet (a number, `true`, `null` cut short). */
const PENDING = Symbol('pending');

/**
 * Reads the beginning of a JSON text streaming in, as far as it can be read
 * without guessing: the value it shows only ever grows towards the final one.
 * A string shows what has arrived (never half an escape), so it only gets
 * longer; a number, `true`, `false` or `null` shows once it has ended, so it
 * never changes; an object shows the properties whose value has started; an
 * array the items that have. Whatever the stream adds later, every value shown
 * keeps its type and every string it shows is a prefix of the final one.
 *
 * @throws SyntaxError where the text can never become JSON, or where it
 *   nests objects and arrays deeper than `MAX_JSON_DEPTH`.
 * @example
 * parsePartialJson('{"title": "Plan the la'); // { value: { title: 'Plan the la' }, complete: false }
 * parsePartialJson('{"n": 12');              // { value: {}, complete: false }
 */
export function parsePartialJson(text: string): PartialJson {
  const reader = new Reader(text);
  reader.space();
  if (reader.ended) return { value: undefined, complete: false };
  const value = reader.value();
  if (reader.ended) return { value: value === PENDING ? undefined : value, complete: false };
  reader.space();
  if (!reader.atEnd()) reader.fail('more text after the JSON value');
  return { value, complete: true };
}

class Reader {
  #i = 0;
  /** Objects and arrays open around the reader. */
  #depth = 0;
  /** Set once the text ran out inside a value: everything unwinds from there. */
  ended = false;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  atEnd(): boolean {
    return this.#i >= this.#text.length;
  }

  fail(what: string): never {
    throw new SyntaxError(`Not JSON at character ${this.#i}: ${what}.`);
  }

  space(): void {
    while (/[ \t\n\r]/.test(this.#text[this.#i] ?? '')) this.#i += 1;
    if (this.atEnd()) this.ended = true;
  }

  value(): unknown {
    const char = this.#text[this.#i];
    if (char === '{' || char === '[') {
      this.#depth += 1;
      if (this.#depth > MAX_JSON_DEPTH) this.fail(`objects and arrays nested more than ${MAX_JSON_DEPTH} levels deep`);
      const value = char === '{' ? this.#object() : this.#array();
      this.#depth -= 1;
      return value;
    }
    if (char === '"') return this.#string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.#number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (char !== word[0]) continue;
      const piece = this.#text.slice(this.#i, this.#i + word.length);
      if (piece === word) {
        this.#i += word.length;
        return value;
      }
      if (word.startsWith(piece) && this.#i + piece.length === this.#text.length) {
        this.ended = true;
        return PENDING;
      }
    }
    return this.fail(`unexpected ${JSON.stringify(char)}`);
  }

  #object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.#i += 1;
    this.space();
    if (this.ended) return out;
    if (this.#text[this.#i] === '}') {
      this.#i += 1;
      return out;
    }
    for (;;) {
      if (this.#text[this.#i] !== '"') this.fail('expected a property name');
      const key = this.#string();
      if (this.ended) return out;
      this.space();
      if (this.ended) return out;
      if (this.#text[this.#i] !== ':') this.fail('expected ":"');
      this.#i += 1;
      this.space();
      if (this.ended) return out;
      const value = this.value();
      // Defined, not assigned, so a "__proto__" key is a property as JSON.parse makes it.
      if (value !== PENDING) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.ended) return out;
      if (this.#close('}')) return out;
    }
  }

  #array(): unknown[] {
    const out: unknown[] = [];
    this.#i += 1;
    this.space();
    if (this.ended) return out;
    if (this.#text[this.#i] === ']') {
      this.#i += 1;
      return out;
    }
    for (;;) {
      const value = this.value();
      if (value !== PENDING) out.push(value);
      if (this.ended) return out;
      if (this.#close(']')) return out;
    }
  }

  /** After a member: `true` at the closing bracket, `false` after a comma (and the space behind it). */
  #close(bracket: '}' | ']'): boolean {
    this.space();
    if (this.ended) return true;
    const char = this.#text[this.#i];
    this.#i += 1;
    if (char === bracket) return true;
    if (char !== ',') this.fail(`expected "," or "${bracket}"`);
    this.space();
    return this.ended;
  }

  #string(): string {
    const start = this.#i + 1;
    let i = start;
    for (;;) {
      const char = this.#text[i];
      if (char === undefined) {
        this.ended = true;
        this.#i = i;
        return this.#decode(start, i);
      }
      if (char === '"') {
        this.#i = i + 1;
        return JSON.parse(this.#text.slice(start - 1, i + 1)) as string;
      }
      if (char === '\\') i += 2;
      else if (char < ' ') this.fail('a control character inside a string');
      else i += 1;
    }
  }

  /** A string cut short: what has arrived, without a half-written escape or half a surrogate pair. */
  #decode(start: number, end: number): string {
    let body = this.#text.slice(start, end);
    // A run of backslashes of odd length ends in an escape still arriving ("\", "\u12").
    const open = /(\\+)(u[0-9a-fA-F]{0,3})?$/.exec(body);
    if (open && (open[1] as string).length % 2 === 1) body = body.slice(0, open.index + (open[1] as string).length - 1);
    const high = /(\\+)u[dD][89abAB][0-9a-fA-F]{2}$/.exec(body);
    if (high && (high[1] as string).length % 2 === 1) body = body.slice(0, high.index + (high[1] as string).length - 1);
    body = body.replace(/[\uD800-\uDBFF]$/, '');
    try {
      return JSON.parse(`"${body}"`) as string;
    } catch {
      return this.fail('a broken escape inside a string');
    }
  }

  #number(): number | typeof PENDING {
    const rest = this.#text.slice(this.#i);
    // Still arriving: "12" can become "123", "5e-" needs its digits, so nothing is shown yet.
    if (/^-?(\d+(\.\d*)?([eE][+-]?\d*)?)?$/.test(rest)) {
      this.#i = this.#text.length;
      this.ended = true;
      return PENDING;
    }
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (!match) return this.fail('a malformed number');
    this.#i += match[0].length;
    return Number(match[0]);
  }
}
