import type { EngineConnection } from './engine/connection.js';
import { StatementRun } from './statementRun.js';
import { UserStatementSlots } from './statementSlots.js';

const conn = { interrupt: () => undefined } as unknown as EngineConnection;

test("a step inside another step of the same statement shares its slot (a limit of 1 does not deadlock it)", async () => {
  const slots = new UserStatementSlots(1);
  const run = new StatementRun(0, slots.forUser('alice'));
  const got = await run.inEngine(conn, () => run.inEngine(conn, async () => slots.state('alice')));
  expect(got).toEqual({ running: 1, waiting: 0 });
  expect(slots.state('alice')).toEqual({ running: 0, waiting: 0 });
  run.end();
});

test('statement_timeout ends the wait for a slot with 57014, and the slot held elsewhere is untouched', async () => {
  const slots = new UserStatementSlots(1);
  const first = new StatementRun(0, slots.forUser('alice'));
  let finish!: () => void;
  const busy = first.inEngine(conn, () => new Promise<void>((r) => (finish = r)));
  const second = new StatementRun(50, slots.forUser('alice'));
  let ran = false;
  await expect(second.inEngine(conn, async () => void (ran = true))).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
  expect(ran).toBe(false);
  expect(slots.state('alice')).toEqual({ running: 1, waiting: 0 });
  finish();
  await busy;
  // control: within its time a statement gets the slot once it is free
  const third = new StatementRun(1000, slots.forUser('alice'));
  await expect(third.inEngine(conn, async () => 'ran')).resolves.toBe('ran');
  third.end();
  first.end();
});
