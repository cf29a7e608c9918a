/**
 * Whether the gateway can serve a statement now (/readyz): started (catalog
 * connected, engine pool up), every configured policy set loaded at least
 * once and not expired, not shutting down. Each unmet condition is one reason.
 */
export type ReadinessCheck = () => string | null;

export class Readiness {
  private startingWhat: string | null = 'starting';
  private stopping = false;
  private readonly checks: ReadinessCheck[] = [];

  /** The start is in this step now (shown as the reason until started()). */
  starting(what: string): void {
    this.startingWhat = what;
  }

  started(): void {
    this.startingWhat = null;
  }

  shuttingDown(): void {
    this.stopping = true;
  }

  /** A condition checked at every /readyz: null when met, else why not. */
  require(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  state(): { ready: boolean; reasons: string[] } {
    const reasons: string[] = [];
    if (this.stopping) reasons.push('shutting down');
    if (this.startingWhat) reasons.push(this.startingWhat);
    else for (const c of this.checks) {
      const r = c();
      if (r) reasons.push(r);
    }
    return { ready: reasons.length === 0, reasons };
  }
}
