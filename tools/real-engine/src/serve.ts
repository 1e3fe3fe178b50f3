import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};

/** Serves `routes` (URL prefix -> folder) on 127.0.0.1 at a free port. */
export async function serve(routes: Record<string, string>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const prefix = Object.keys(routes)
      .filter((p) => path.startsWith(p))
      .toSorted((a, b) => b.length - a.length)[0];
    const root = prefix === undefined ? undefined : routes[prefix];
    const file = root === undefined ? undefined : normalize(join(root, path.slice(prefix?.length ?? 0) || 'index.html'));
    if (!root || !file?.startsWith(normalize(root))) return void res.writeHead(404).end();
    try {
      const { size } = statSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, base: `http://127.0.0.1:${port}` };
}
