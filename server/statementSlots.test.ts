import { PgError, SqlState } from '../protocol/errors.js';
import { UserStatementSlots } from './statementSlots.js';

const never = new AbortController().signal;

test('at most `limit` statements of a user at once; the next waits and gets the first slot given back, in order', async () => {
  const slots = new UserStatementSlots(2);
  const alice = slots.forUser('alice');
  const r1 = await alice.acquire(never);
  const r2 = await alice.acquire(never);
  const order: string[] = [];
  const third = alice.acquire(never).then((r) => (order.push('third'), r));
  const fourth = alice.acquire(never).then((r) => (order.push('fourth'), r));
  // another user is not held up (control)
  const bob = await slots.forUser('bob').acquire(never);
  await new Promise((r) => setImmediate(r));
  expect(order).toEqual([]);
  expect(slots.state('alice')).toEqual({ running: 2, waiting: 2 });
  r1();
  r1(); // giving a slot back twice gives back one
  const r3 = await third;
  await new Promise((r) => setImmediate(r));
  expect(order).toEqual(['third']);
  r2();
  const r4 = await fourth;
  expect(order).toEqual(['third', 'fourth']);
  r3();
  r4();
  bob();
  expect(slots.state('alice')).toEqual({ running: 0, waiting: 0 });
});

test("a stop while waiting rejects with the stop's error and leaves the queue", async () => {
  const slots = new UserStatementSlots(1);
  const alice = slots.forUser('alice');
  const held = await alice.acquire(never);
  const stop = new AbortController();
  const waiting = alice.acquire(stop.signal);
  const timeout = new PgError(SqlState.queryCanceled, 'canceling statement due to statement timeout');
  stop.abort(timeout);
  await expect(waiting).rejects.toBe(timeout);
  expect(slots.state('alice')).toEqual({ running: 1, waiting: 0 });
  // an already stopped statement never queues
  await expect(alice.acquire(stop.signal)).rejects.toBe(timeout);
  held();
  expect(slots.state('alice')).toEqual({ running: 0, waiting: 0 });
});
