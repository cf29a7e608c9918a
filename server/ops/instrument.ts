/**
 * A client whose asynchronous calls are timed: every method that returns a
 * promise reports its name, its duration and whether it settled or failed.
 * Methods run on the client itself (not the proxy), so private fields work.
 */
export type CallObserver = (method: string, seconds: number, ok: boolean) => void;

export function timedCalls<T extends object>(target: T, observe: CallObserver): T {
  return new Proxy(target, {
    get(obj, key) {
      const value: unknown = Reflect.get(obj, key);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const start = process.hrtime.bigint();
        const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
        const result = method.apply(obj, args);
        // Only calls that wait are calls to a server; synchronous helpers are not counted.
        if (!(result instanceof Promise)) return result;
        return result.then(
          (v) => {
            observe(key, seconds(), true);
            return v;
          },
          (e: unknown) => {
            observe(key, seconds(), false);
            throw e;
          },
        );
      };
    },
  });
}
