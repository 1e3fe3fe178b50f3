/** Headers servers and gateways put their request id in, most common first. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'apim-request-id', 'x-ms-request-id', 'cf-ray'];

/**
 * The server's id for a request, from its response headers, or `undefined`
 * when it sent none. Quoting it lets a server's operators find the request
 * in their logs.
 *
 * @example
 * requestIdOf(new Headers({ 'x-request-id': 'req_123' })); // 'req_123'
 */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name)?.trim();
    if (value) return value.slice(0, 200);
  }
  return undefined;
}
