/**
 * The data gate's policy set behind a handle a reload can repoint: the
 * planner, the admin room and logins keep the handle, and see the new
 * source's set from their next call on.
 */
import type { GatewayPolicies } from '../policies.js';

export class LivePolicies implements GatewayPolicies {
  constructor(private inner: GatewayPolicies) {}

  current() {
    return this.inner.current();
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  state(): string {
    return this.inner.state?.() ?? 'not-configured';
  }

  /** Use `next` from now on; the old set is stopped. */
  replace(next: GatewayPolicies): void {
    const old = this.inner;
    this.inner = next;
    old.stop();
  }

  stop(): void {
    this.inner.stop();
  }
}
