import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { NEW_VERSION_AT } from './test/testModels.js';

/** How one test's model is served (set through `/__models/config`). */
interface ServeConfig {
  /** Answer `Range` requests with 206 (and `Accept-Ranges: bytes`); else ignore them (200, `Accept-Ranges: none`). */
  ranges: boolean;
  /** Cut the connection of the next GET after this share of its body (0..1); `undefined` for none. */
  cutOnce: number | undefined;
  /** Honour `If-Range` (a changed file answers 200 whole); `false`: answer every range with 206, as some servers do. */
  ifRange: boolean;
  /** `2`: serve a new version of each file (one byte past the first 5 MB changed, so a new ETag); `1`: the file as it is. */
  version: number;
}

/** One request as the server saw it, with the body bytes it really sent. */
export interface ServedRequest {
  method: string;
  /** The file's name (the path's last segment). */
  file: string;
  range: string | undefined;
  ifRange: string | undefined;
  status: number;
  bytesSent: number;
}

/**
 * A Vite plugin serving the suite's models at `/__models/<key>/<file>` (and a
 * WebLLM layout at `/__models/<key>/resolve/main/<file>`) with
 * switches a test flips per key: ranges or none, `If-Range` honoured or
 * ignored, a second version of the file, a cut after a share of the
 * body (the socket destroyed mid-stream, as a dropped connection), and a log
 * of every request with the bytes it sent (`/__models/log?key=`), so tests
 * count at the server what a load fetched.
 */
export function modelServer(modelDir: string): Plugin {
  const configs = new Map<string, ServeConfig>();
  const logs = new Map<string, ServedRequest[]>();
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/__models/')) return next();
    const key = url.searchParams.get('key') ?? '';
    if (url.pathname === '/__models/config') {
      configs.set(key, {
        ranges: url.searchParams.get('ranges') !== '0',
        cutOnce: url.searchParams.has('cut') ? Number(url.searchParams.get('cut')) : undefined,
        ifRange: url.searchParams.get('ifrange') !== '0',
        version: Number(url.searchParams.get('version') ?? '1'),
      });
      logs.set(key, []);
      return res.end('{}');
    }
    if (url.pathname === '/__models/log') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify(logs.get(key) ?? []));
    }
    // /__models/<key>/<file>, or /__models/<key>/resolve/main/<file> (a WebLLM model folder): the key, then the file's name.
    const parts = url.pathname.split('/');
    const modelKey = parts[2] ?? '';
    const file = parts.length > 3 ? (parts.at(-1) ?? '') : '';
    const config = configs.get(modelKey) ?? { ranges: true, cutOnce: undefined, ifRange: true, version: 1 };
    const log = logs.get(modelKey) ?? [];
    logs.set(modelKey, log);
    let bytes: Buffer;
    try {
      bytes = readFileSync(modelDir + file);
    } catch {
      res.statusCode = 404;
      return res.end('not found');
    }
    if (config.version === 2 && bytes.length > NEW_VERSION_AT) {
      bytes = Buffer.from(bytes);
      bytes[NEW_VERSION_AT] = bytes[NEW_VERSION_AT]! ^ 0xff;
    }
    const etag = `"${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}"`;
    const lastModified = statSync(modelDir + file).mtime.toUTCString();
    const entry: ServedRequest = {
      method: req.method ?? 'GET',
      file,
      range: req.headers.range,
      ifRange: req.headers['if-range'] as string | undefined,
      status: 200,
      bytesSent: 0,
    };
    log.push(entry);
    res.setHeader('etag', etag);
    res.setHeader('last-modified', lastModified);
    res.setHeader('accept-ranges', config.ranges ? 'bytes' : 'none');
    res.setHeader('cache-control', 'no-store');
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const validatorOk = !config.ifRange || entry.ifRange === undefined || entry.ifRange === etag || entry.ifRange === lastModified;
    if (config.ranges && range && validatorOk) {
      start = Number(range[1]);
      if (start >= bytes.length) {
        entry.status = 416;
        res.statusCode = 416;
        res.setHeader('content-range', `bytes */${bytes.length}`);
        return res.end();
      }
      entry.status = 206;
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${bytes.length - 1}/${bytes.length}`);
    }
    const body = bytes.subarray(start);
    res.setHeader('content-length', String(body.length));
    if (req.method === 'HEAD') return res.end();
    const cut = config.cutOnce;
    config.cutOnce = undefined;
    const send = cut === undefined ? body : body.subarray(0, Math.floor(body.length * cut));
    entry.bytesSent = send.length;
    if (cut === undefined) return res.end(send);
    res.flushHeaders();
    // Ended, not reset, after a pause: the client reads what was sent, then sees the body end short of its length.
    // (A browser drops what it has buffered but not yet handed to the page when a connection closes, so the
    // page may keep a little less than was sent; tests compare with what the page stored.)
    res.write(send, () => setTimeout(() => res.socket?.end(), 400));
  };
  return {
    name: 'inkling-model-server',
    configureServer(server) {
      server.middlewares.use(handle);
    },
  };
}
