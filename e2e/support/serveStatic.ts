import { createReadStream, existsSync, statSync } from 'node:fs';
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.ico': 'image/x-icon',
};

/**
 * Serves a built folder on 127.0.0.1 (a free port); unknown paths get
 * index.html. `mounts` serves more folders under URL prefixes on the same
 * origin, e.g. `{ '/models/': dir }` (files only; a missing one is a 404).
 */
export async function serveStatic(
  folder: string,
  mounts: Record<string, string> = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const root = resolve(folder);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`${root}/index.html is missing: build it first (pnpm test:e2e builds the demo and Storybook).`);
  }
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const mount = Object.keys(mounts).find((prefix) => path.startsWith(prefix));
    if (mount) {
      serveMounted(resolve(mounts[mount]!), path.slice(mount.length), res);
      return;
    }
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      const index = join(file, 'index.html');
      file = existsSync(index) ? index : join(root, 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function serveMounted(folder: string, path: string, res: ServerResponse): void {
  const file = normalize(join(folder, path));
  if (!file.startsWith(folder) || !existsSync(file) || statSync(file).isDirectory()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(statSync(file).size),
    'cache-control': 'no-store',
  });
  createReadStream(file).pipe(res);
}
