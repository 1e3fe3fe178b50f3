import type { Endpoint } from './endpoint.js';
import { RedirectRefusedError } from './errors.js';
import { requestIdOf } from './requestId.js';

/**
 * The `RedirectRefusedError` for a response that is a redirect, or that a
 * `fetch` of your own got by following one; `undefined` for any other.
 * Requests go out with `redirect: 'manual'`, so Node hands back the 3xx
 * itself and a browser an `opaqueredirect` response (status 0, no headers):
 * either way nothing was sent to the address it names. The body is let go.
 *
 * @example
 * const refused = redirectRefused(response, endpoint, '/chat/completions');
 * if (refused) throw refused;
 */
export function redirectRefused(response: Response, endpoint: Endpoint, path: string): RedirectRefusedError | undefined {
  const followed = response.redirected;
  const opaque = response.type === 'opaqueredirect';
  if (!followed && !opaque && !(response.status >= 300 && response.status < 400)) return undefined;
  void response.body?.cancel().catch(() => {});
  const where = `${endpoint.shown}${path}`;
  const requestId = requestIdOf(response.headers, (text) => endpoint.redact(text));
  if (followed) {
    const landed = shownURL(response.url, endpoint);
    return new RedirectRefusedError(
      `The server at ${where} redirected the request${landed ? ` to ${landed}` : ''}, and the fetch given to openaiEngines() followed it, with the API key and headers. Its answer is not used. Pass a fetch that keeps redirect: 'manual', and set baseURL to the address the server really serves from.`,
      response.status,
      landed,
      { requestId },
    );
  }
  const location = opaque ? undefined : shownURL(response.headers.get('location') ?? '', endpoint, endpoint.url(path));
  const to = location ? ` to ${location}` : '';
  const status = opaque ? 'a redirect' : `a redirect (${response.status})`;
  return new RedirectRefusedError(
    `The server at ${where} answered with ${status}${to}. Inkling follows no redirect: it would carry the API key and headers there. If that is where the server now lives, set baseURL to it in openaiEngines().`,
    response.status,
    location,
    { requestId },
  );
}

/** `raw` (resolved against `base`) as errors show it: no credentials, no query, no fragment, secrets redacted. */
function shownURL(raw: string, endpoint: Endpoint, base?: string): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw, base);
    return endpoint.redact(`${url.protocol}//${url.host}${url.pathname}`);
  } catch {
    return undefined;
  }
}
