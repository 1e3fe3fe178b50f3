// Runs in a child process (see keystroke.mjs): mounts `GhostTextarea` from the
// tree at argv[2] with a fake engine in happy-dom, lets the first suggestion
// settle, then records V8's precise coverage over one typed key: from the
// keydown until its suggestion is painted. Prints the script URLs with any
// function that ran, as JSON.
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
const reactPackage = join(root, 'packages/react/package.json');
const need = createRequire(reactPackage);
const { Window } = await import(pathToFileURL(need.resolve('happy-dom')).href);

const window = new Window({ url: 'http://localhost/' });
for (const name of [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'HTMLTextAreaElement',
  'Element',
  'Node',
  'Event',
  'KeyboardEvent',
  'InputEvent',
  'MutationObserver',
  'ResizeObserver',
  'getComputedStyle',
  'requestAnimationFrame',
  'cancelAnimationFrame',
]) {
  if (window[name] !== undefined)
    globalThis[name] = typeof window[name] === 'function' && !/^[A-Z]/.test(name) ? window[name].bind(window) : window[name];
}
globalThis.IS_REACT_ACT_ENVIRONMENT = false;

const React = need('react');
const { createRoot } = need('react-dom/client');
const userEvent = (await import(pathToFileURL(need.resolve('@testing-library/user-event')).href)).default;
const kit = await import(pathToFileURL(join(root, 'packages/react/src/index.ts')).href);
const testing = await import(pathToFileURL(join(root, 'packages/scheduler/src/testing/index.ts')).href);

const { pool } = testing.fakePool({ reply: ' jumps over the dog', tokenMs: 1 });
await pool.load();
const host = document.createElement('div');
document.body.append(host);
const app = React.createElement(
  kit.PoolProvider,
  { pool },
  React.createElement(kit.GhostTextarea, { 'aria-label': 'Note', defaultValue: '', speculate: false }),
);
createRoot(host).render(app);

const textarea = () => host.querySelector('textarea');
const ghost = () => host.querySelector('[data-inkling-ghost]')?.textContent ?? '';
async function until(done, what) {
  for (const started = Date.now(); !done();) {
    if (Date.now() - started > 5000) throw new Error(`keystroke: no ${what} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
await until(() => textarea() !== null, 'textarea');
const user = userEvent.setup({ document });
// Warm up: the first keys load every module and fill React's first renders.
await user.type(textarea(), 'The fox');
await until(() => ghost() !== '', 'first suggestion');
await new Promise((resolve) => setTimeout(resolve, 50));

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage'); // resets the counts
await user.type(textarea(), 'x');
await until(() => ghost() !== '' && textarea().value === 'The foxx', 'suggestion after the key');
await new Promise((resolve) => setTimeout(resolve, 50));
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
const ran = result.filter((script) => script.functions.some((fn) => fn.ranges[0].count > 0)).map((script) => script.url);
process.stdout.write(JSON.stringify(ran));
process.exit(0);
