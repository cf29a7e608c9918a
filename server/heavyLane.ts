/**
 * Large statements take turns on the event loop. Planning a statement near
 * the node limit costs tens of milliseconds of main-thread time, which every
 * other session waits behind; several sessions sending such statements back
 * to back would keep the loop busy. So large statements are planned one at a
 * time, and after each the lane stays shut for as long again as it took: at
 * most half of the event loop goes to large statements, whoever sends them,
 * and ordinary statements never wait behind more than one.
 */
export class HeavyLane {
  private busy = false;
  private openAt = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.openAt = performance.now() + (performance.now() - started);
      this.busy = false;
      this.waiting.shift()?.();
    }
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    while (this.busy) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal!.reason);
        };
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    }
    this.busy = true;
    const pause = this.openAt - performance.now();
    if (pause > 0) {
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, pause);
          signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          }, { once: true });
        });
      } catch (e) {
        this.busy = false;
        this.waiting.shift()?.();
        throw e;
      }
    }
  }
}
