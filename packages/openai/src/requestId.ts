/** Headers servers and gateways put their request id in, most common first. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'apim-request-id', 'x-ms-request-id', 'cf-ray'];

/**
 * The server's id for a request, from its response headers, passed through
 * `redact` (a server or proxy may echo a header it was sent, the key among
 * them), or `undefined` when it sent none. Quoting it lets a server's
 * operators find the request in their logs.
 *
 * @example
 * requestIdOf(new Headers({ 'x-request-id': 'req_123' }), (s) => endpoint.redact(s)); // 'req_123'
 */
export function requestIdOf(headers: Headers, redact: (text: string) => string): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name)?.trim();
    // Redacted before it is cut, so a key split by the cut cannot survive in part.
    if (value) return redact(value).slice(0, 200);
  }
  return undefined;
}
