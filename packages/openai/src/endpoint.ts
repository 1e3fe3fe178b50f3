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
    const given = [options.apiKey, ...Object.values(options.headers ?? {}).flatMap(headerSecrets), ...urlSecrets(this.#base)];
    const secrets = given
      .filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
      // A server or proxy may echo a secret URL-encoded.
      .flatMap((s) => [s, encodeURIComponent(s)]);
    this.#secrets = [...new Set(secrets)].toSorted((a, b) => b.length - a.length);
    this.shown = showURL(this.#base);
  }

  /** `path` under the base; with `root`, under the server's root instead (the base without its `/v1`, where llama.cpp serves `/props`). */
  url(path: string, root = false): string {
    return `${root ? this.#base.replace(/\/v\d+$/, '') : this.#base}${path}`;
  }

  /**
   * Calls `fetch` with the endpoint's headers added and `redirect: 'manual'`;
   * `body` is JSON text (see `serializeBody`); `headers` are the request's
   * own (the job's hints).
   */
  fetch(
    path: string,
    init: {
      method: 'GET' | 'POST';
      body?: string;
      signal?: AbortSignal;
      accept?: string;
      headers?: Record<string, string>;
      root?: boolean;
    },
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json', ...this.#headers, ...init.headers };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    // Never followed: a redirect would carry the key and headers to wherever it points (see `redirectRefused`).
    const request: RequestInit = { method: init.method, headers, signal: init.signal ?? null, redirect: 'manual' };
    if (init.body !== undefined) request.body = init.body;
    // Looked up per call, never captured at import, so tests and polyfills can swap it.
    const call = this.#fetch ?? ((input: string, options: RequestInit) => globalThis.fetch(input, options));
    return call(this.url(path, init.root), request);
  }

  /** `text` with every secret (key, header values, URL credentials) replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join('[redacted]');
    return out;
  }
}

/**
 * A header value is a secret whole, and so is its credential alone:
 * `Authorization: Bearer sk-...` is echoed back as just `sk-...` as often as whole.
 */
function headerSecrets(value: string): string[] {
  const credential = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value.trim())?.[1];
  return credential === undefined ? [value] : [value, credential];
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
