import type { FetchLike, OpenAIEnginesOptions } from './types.js';

/** Secrets shorter than this are not redacted: it would garble ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Where requests go and what they carry, and the one place that knows the
 * secrets, so that everything said about a request (`shown`, `redact`) is
 * safe to put in an error.
 *
 * @example
 * const endpoint = new Endpoint({ baseURL: 'http://localhost:8000/v1', model: 'm', apiKey });
 * await endpoint.fetch('/models', { method: 'GET' });
 * endpoint.redact(`refused ${apiKey}`); // 'refused [redacted]'
 */
export class Endpoint {
  /** The base URL as errors show it: no credentials, no query, no fragment. */
  readonly shown: string;
  readonly model: string;
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #secrets: string[];
  readonly #fetch: FetchLike | undefined;

  constructor(options: OpenAIEnginesOptions) {
    this.#base = options.baseURL.replace(/\/+$/, '');
    this.model = options.model;
    this.#fetch = options.fetch;
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    this.#headers = headers;
    this.#secrets = [options.apiKey, ...Object.values(options.headers ?? {}), ...urlSecrets(this.#base)]
      .filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
      .toSorted((a, b) => b.length - a.length);
    this.shown = showURL(this.#base);
  }

  url(path: string): string {
    return `${this.#base}${path}`;
  }

  /** Calls `fetch` with the endpoint's headers added. */
  fetch(path: string, init: { method: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal; accept?: string }): Promise<Response> {
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json', ...this.#headers };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const request: RequestInit = { method: init.method, headers, signal: init.signal ?? null };
    if (init.body !== undefined) request.body = JSON.stringify(init.body);
    // Looked up per call, never captured at import, so tests and polyfills can swap it.
    const call = this.#fetch ?? ((input: string, options: RequestInit) => globalThis.fetch(input, options));
    return call(this.url(path), request);
  }

  /** `text` with every secret (key, header values, URL credentials) replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join('[redacted]');
    return out;
  }
}

function showURL(base: string): string {
  try {
    const url = new URL(base);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(an invalid baseURL)';
  }
}

/** A password in the URL and query values (Azure-style `?api-key=`) are secrets too. */
function urlSecrets(base: string): string[] {
  try {
    const url = new URL(base);
    return [url.password, url.username, ...url.searchParams.values()].map((s) => decodeURIComponent(s));
  } catch {
    return [];
  }
}
