/**
 * Statements one user may run in the engine at once (config
 * maxStatementsPerUser). A statement beyond waits its turn, first come first
 * served, as a PostgreSQL statement waits for a lock: it is not refused, and
 * whatever stops a statement (statement_timeout, CancelRequest, a client that
 * hangs up, shutdown) stops the wait too, through the statement's signal.
 */

export interface StatementSlots {
  /** Resolves with the function that gives the slot back; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void>;
}

interface Waiter {
  grant(release: () => void): void;
}

interface UserQueue {
  running: number;
  waiting: Waiter[];
}

export class UserStatementSlots {
  private readonly users = new Map<string, UserQueue>();

  constructor(private readonly limit: number) {}

  forUser(user: string): StatementSlots {
    return { acquire: (signal) => this.acquire(user, signal) };
  }

  /** Statements running and waiting for a user now (for tests and diagnostics). */
  state(user: string): { running: number; waiting: number } {
    const q = this.users.get(user);
    return { running: q?.running ?? 0, waiting: q?.waiting.length ?? 0 };
  }

  private acquire(user: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let q = this.users.get(user);
    if (!q) {
      q = { running: 0, waiting: [] };
      this.users.set(user, q);
    }
    const queue = q;
    if (queue.running < this.limit) {
      queue.running++;
      return Promise.resolve(this.releaser(user, queue));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const at = queue.waiting.indexOf(waiter);
        if (at >= 0) queue.waiting.splice(at, 1);
        this.forget(user, queue);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.waiting.push(waiter);
    });
  }

  /** Gives the slot back once: to the next waiter, else to the pool. */
  private releaser(user: string, queue: UserQueue): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = queue.waiting.shift();
      if (next) {
        next.grant(this.releaser(user, queue));
        return;
      }
      queue.running--;
      this.forget(user, queue);
    };
  }

  private forget(user: string, queue: UserQueue): void {
    if (queue.running === 0 && queue.waiting.length === 0 && this.users.get(user) === queue) this.users.delete(user);
  }
}
