/**
 * The server an integration suite talks to. By default a fresh `lakegate demo`.
 * To prove the assertions themselves against real PostgreSQL holding the same demo
 * users and data (scripts/pg-demo.sh), set
 *   LAKEGATE_TEST_PORT=<port> [LAKEGATE_TEST_HOST=127.0.0.1] LAKEGATE_TEST_KIND=postgres
 * and the suites use that server instead of starting lakegate.
 */
import { startLakegate, type Lakegate } from './lakegate.js';

export type TargetKind = 'lakegate' | 'postgres';

export interface Target {
  host: string;
  port: number;
  kind: TargetKind;
  /** Server output so far (lakegate only), for failure messages. */
  output(): string;
  /** False once a lakegate process has died. */
  alive(): boolean;
  stop(): Promise<void>;
}

export const DEMO_USERS = ['alice', 'bob', 'carol', 'dave', 'erin'] as const;
export const DEMO_DB = 'demo';

/** The demo rows, written out independently of lakegate. */
export const ORDERS = [
  { id: 1, ssn: '111-11-1111', amount: '100.00', region: 'EU' },
  { id: 2, ssn: '222-22-2222', amount: '250.50', region: 'US' },
] as const;

export async function startTarget(): Promise<Target> {
  const port = process.env['LAKEGATE_TEST_PORT'];
  if (port) {
    const kind = (process.env['LAKEGATE_TEST_KIND'] ?? 'lakegate') as TargetKind;
    return {
      host: process.env['LAKEGATE_TEST_HOST'] ?? '127.0.0.1',
      port: Number(port),
      kind,
      output: () => '',
      alive: () => true,
      stop: async () => {},
    };
  }
  const lg: Lakegate = await startLakegate();
  return { host: lg.host, port: lg.port, kind: 'lakegate', output: lg.output, alive: lg.alive, stop: lg.stop };
}
