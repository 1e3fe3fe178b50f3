/** How deep a cause chain is copied; deeper links are dropped. */
const MAX_DEPTH = 4;

/**
 * A copy of a foreign error that is safe to keep as a `cause`: a plain
 * `Error` with the original's `name`, `message`, `stack` and `code`, each
 * passed through `redact`, and its `cause` (and an `AggregateError`'s
 * `errors`) copied the same way. Nothing else comes along: a `fetch` of your
 * own may hang the request on its error (`headers`, `request`, `config`),
 * and with it the API key.
 *
 * @example
 * new ServerUnreachableError(message, { cause: redactedCopy(error, (s) => endpoint.redact(s)) });
 */
export function redactedCopy(error: unknown, redact: (text: string) => string, depth = 0): Error {
  const source = error instanceof Error ? error : undefined;
  const copy = new Error(redact(source ? source.message : describe(error)));
  Object.defineProperty(copy, 'name', { value: redact(source?.name ?? 'Error'), writable: true, configurable: true });
  copy.stack = source?.stack === undefined ? `${copy.name}: ${copy.message}` : redact(source.stack);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code: typeof code === 'string' ? redact(code) : code });
  if (depth < MAX_DEPTH && source?.cause !== undefined) copy.cause = redactedCopy(source.cause, redact, depth + 1);
  if (depth < MAX_DEPTH && error instanceof AggregateError) {
    Object.assign(copy, { errors: error.errors.slice(0, 4).map((e: unknown) => redactedCopy(e, redact, depth + 1)) });
  }
  return copy;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
