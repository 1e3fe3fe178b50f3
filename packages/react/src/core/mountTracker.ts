/**
 * Counts mounts and runs `onIdle` a microtask after the last one goes, unless
 * another mount arrives first. React StrictMode's mount, unmount, mount runs
 * in one task, so work started on the first mount survives the rehearsal.
 *
 * @example
 * const mounts = new MountTracker(() => controller.dispose());
 * useEffect(() => mounts.mount(), []);
 */
export class MountTracker {
  readonly #onIdle: () => void;
  #count = 0;
  #pending = false;

  constructor(onIdle: () => void) {
    this.#onIdle = onIdle;
  }

  /** True while at least one mount is live. */
  get mounted(): boolean {
    return this.#count > 0;
  }

  /** Records a mount; returns the unmount (calling it twice counts once). */
  mount(): () => void {
    this.#count += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#count -= 1;
      if (this.#count > 0 || this.#pending) return;
      this.#pending = true;
      queueMicrotask(() => {
        this.#pending = false;
        if (this.#count === 0) this.#onIdle();
      });
    };
  }
}
