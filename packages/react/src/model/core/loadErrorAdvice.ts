import type { ErrorDevice, ErrorKind } from '@inkling/scheduler';

/** Advice for one kind of failure, worded for where it happened when that changes what to do. */
type Advice = string | ((device: ErrorDevice | undefined) => string);

/** What a person can do, by what failed (`InklingError.kind`). Kinds missing here fall back to the error's message. */
const ADVICE: Partial<Record<ErrorKind, Advice>> = {
  'no-device': (device) =>
    device === 'cpu'
      ? 'This browser cannot run the model on this device (its WebAssembly lacks 64-bit memory). Open the page in Chrome or Edge 133+ or Firefox 134+, or use a server engine instead.'
      : device === 'browser'
        ? 'This browser has no built-in model for this. Use Chrome with its built-in AI turned on, or another engine.'
        : 'This browser cannot run the model on the GPU (no WebGPU). Open the page in Chrome or Edge 113+ or Safari 26+ with WebGPU turned on, or use a server or simulated engine instead.',
  'device-feature': 'This GPU lacks 16-bit float shaders. Pick the f32 build of the model (its id ends in q4f32_1).',
  'out-of-memory': (device) =>
    device === 'gpu'
      ? 'The GPU ran out of memory. Close other GPU-heavy tabs, pick a smaller model, or use fewer engines (pool size 1), then try again.'
      : 'The model did not fit in the memory this browser gives the page (4 GB at most, less on phones): it ran out of memory. Close other heavy tabs, pick a smaller model or a shorter context, or use fewer engines (pool size 1), then try again.',
  'model-not-found': (device) =>
    device === 'server'
      ? 'The server has no model by this name. Check the model name, or load that model on the server, then try again.'
      : 'There is no model with this id or at this address. Pick one from the model list, or check the id or URL for typos.',
  'file-unreadable':
    'The model file arrived but cannot be read: it is damaged, cut short, or not a model this engine runs. Delete the stored copy and download it again, or pick another model.',
  network: (device) =>
    device === 'server'
      ? 'The model server could not be reached. Check the network connection and the server address, then try again.'
      : device === 'browser'
        ? 'The browser could not download its built-in model. Check the network connection and the free disk space, then try again.'
        : 'The model files could not be downloaded. Check the network connection and that the model URL is right and allows this site (CORS), then try again.',
  'storage-full': 'There is not enough storage for the model. Free some disk space or clear old models, then try again.',
  setup:
    'The app could not start its model engine: a part it needs is missing. Reload the page; if it keeps failing, tell the site’s developer (the details are below).',
  cancelled: 'Loading was cancelled. Load the model again when you are ready.',
  'needs-gesture': 'The browser downloads its built-in model only when you ask for it: press the button to start the download.',
  crashed: (device) =>
    device === 'gpu'
      ? 'The GPU was reset (a driver update, sleep, or memory pressure). Try again.'
      : 'The model’s engine stopped. Try again; if it keeps happening, reload the page.',
};

/** Kinds of the platform's own errors, which carry no `kind` (a `DOMException` from storage). */
const PLATFORM_KINDS: Readonly<Record<string, ErrorKind>> = { QuotaExceededError: 'storage-full' };

/** What failed, by the error's `kind`, or the platform's name for its own errors. */
function kindOf(error: object): ErrorKind | undefined {
  const { kind, name } = error as { kind?: unknown; name?: unknown };
  if (typeof kind === 'string' && Object.hasOwn(ADVICE, kind)) return kind as ErrorKind;
  return typeof name === 'string' && Object.hasOwn(PLATFORM_KINDS, name) ? PLATFORM_KINDS[name] : undefined;
}

/**
 * What a person can do about a model that failed to load, chosen by what
 * failed (the error's `kind`, or its `cause`'s, for a wrapped error) and
 * where (`device`: a CPU out of memory is not told about the GPU): no
 * device, out of memory, a model that is not there, a file that cannot be
 * read, no network, a cancelled load, a download the browser starts only
 * from a click, a crashed engine. Every engine's
 * errors carry their kind, so one table serves all. Falls back to the
 * error's own message, which Inkling writes to be acted on.
 *
 * @example
 * const { error } = useModelLoad();
 * if (error) return <p role="alert">{loadErrorAdvice(error)}</p>;
 */
export function loadErrorAdvice(error: { name?: string; message?: string; cause?: unknown }): string {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const kind = kindOf(current);
    const advice = kind && ADVICE[kind];
    if (advice) return typeof advice === 'string' ? advice : advice((current as { device?: ErrorDevice }).device);
    current = (current as { cause?: unknown }).cause;
  }
  return error.message || 'The model could not be loaded. Try again.';
}
