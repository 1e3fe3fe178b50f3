import { EngineError, InklingError, InvalidJobError } from './errors.js';

/**
 * A job's schema is not a JSON Schema the kit's engines can enforce (a typo in
 * a keyword, a type name that does not exist, a feature outside the portable
 * subset). The job ends with it before any token; `path` says where.
 *
 * @example
 * if (result.error instanceof InvalidSchemaError) console.warn(result.error.path, result.error.message);
 */
export class InvalidSchemaError extends InvalidJobError {
  override name = 'InvalidSchemaError';
  /** Where in the schema: `''` for its root, else like `properties.tags.items`. */
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(`The schema ${path ? `at ${path} ` : ''}cannot be used: ${message}`, options);
    this.path = path;
  }
}

/**
 * The engine (or its model, or the server behind it) cannot constrain its
 * output to a schema. The job ends with it before any token; choose an engine
 * that can, or ask for the object by prompt and check it afterwards
 * (`useObject`'s `mode: 'prompt'`).
 *
 * @example
 * if (result.error instanceof UnsupportedConstraintError) retryWith({ mode: 'prompt' });
 */
export class UnsupportedConstraintError extends EngineError {
  override name = 'UnsupportedConstraintError';
  override readonly kind = 'refused';
}

/**
 * A model's answer was not the object its schema describes: not JSON at all
 * (`path` is `''` and `value` the text), or a value at `path` that does not
 * match. `text` keeps the whole answer.
 *
 * @example
 * if (error instanceof ObjectValidationError) console.warn(`${error.path}: ${String(error.value)}`);
 */
export class ObjectValidationError extends InklingError {
  override name = 'ObjectValidationError';
  override readonly kind = 'invalid';
  /** Where in the object: `''` for the whole answer, else like `items[2].title`. */
  readonly path: string;
  /** The value found there. */
  readonly value: unknown;
  /** The model's whole answer. */
  readonly text: string;

  constructor(details: { path: string; value: unknown; text: string; message: string }, options?: { cause?: unknown }) {
    super(details.message, options);
    this.path = details.path;
    this.value = details.value;
    this.text = details.text;
  }
}
