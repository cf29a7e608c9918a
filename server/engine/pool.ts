/**
 * The engine processes of a gateway: one per user (up to `maxProcesses`;
 * past that, users share the least-used one), started on first use from a
 * spare kept ready, stopped when idle, started again after a crash. What one
 * user's statements do to an engine — exhaust its memory, abort it — reaches
 * only that user's statements.
 *
 * Every engine runs the same bootstrap (the catalog emulation and the mask
 * macros): recorded once, on the first engine, from what the planner factory
 * runs on its privileged connection, and replayed by each engine before it
 * locks itself down.
 *
 * Memory: each engine's DuckDB has its own memory_limit (the per-user bound),
 * and a watchdog reads every engine's resident memory, because not all of it
 * is DuckDB's to account for (a constant-folded 1 GB string is not): past its
 * bound an engine's statements are stopped with 53200; an engine far past it,
 * or that does not come down, is killed, and one past it with no statement
 * running (memory its allocator kept) is recycled before the next one starts. Past the bound on all engines
 * together, the largest one's statements are stopped.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { EngineConnection } from './connection.js';
import type { EngineStart } from './messages.js';
import { EngineProcess } from './process.js';

export interface EnginePoolOptions {
  start: Omit<EngineStart, 'bootstrap' | 'allowedDirectories'> & { allowedDirectories: string[] };
  /** Where engines spill: each in a folder of its own below it, removed when it ends. */
  tempDirectory: string;
  /** libuv threads per engine process (each DuckDB call holds one). */
  threadpoolSize: number;
  /** Most engine processes at once (spares included); past it, users share. */
  maxProcesses: number;
  /** Engines started ahead of need, so a user's first statement does not wait for one. */
  spares: number;
  /** An engine nobody has a connection to is stopped after this long. */
  idleMs: number;
  /** Resident memory one engine's DuckDB may hold (its memory_limit). */
  processMemoryBytes: number;
  /** Resident memory all engines' DuckDB instances together may hold. */
  totalMemoryBytes: number;
  /** What an engine process holds besides DuckDB's buffers (Node, the extensions, the catalog emulation): allowed on top of both bounds. */
  processOverheadBytes: number;
  /** How often the watchdog reads resident memory. */
  watchIntervalMs: number;
  log: Logger;
}

/** An engine as the rest of the gateway asks for it. */
export interface Engine {
  /** A connection for a session of this user, on the user's engine process. */
  connect(user: string): Promise<EngineConnection>;
  close(): Promise<void>;
}

interface Slot {
  proc: EngineProcess;
  users: Set<string>;
  connections: Set<EngineConnection>;
  /** When its last connection closed (null while it has some). */
  idleSince: number | null;
  /** When the watchdog first found it past its bound (null: within it). */
  overSince: number | null;
}

/** Collects what the planner factory runs on the privileged connection, for every later engine to replay. */
class RecordingConnection extends EngineConnection {
  constructor(
    proc: EngineProcess,
    handle: number,
    private readonly recorded: string[],
  ) {
    super(proc, handle);
  }

  override async run(sql: string, params?: Parameters<EngineConnection['run']>[1]): Promise<number | null> {
    if (params && params.length > 0) throw new Error('the engine bootstrap cannot bind parameters');
    const changed = await super.run(sql);
    this.recorded.push(sql);
    return changed;
  }
}

let spillSeq = 0;

/** An engine with a spill folder of its own (two DuckDB instances must not share one), removed when it exits. */
async function spawnEngine(opts: EnginePoolOptions, bootstrap: string[], allowedDirectories: string[] | null): Promise<EngineProcess> {
  const spill = join(opts.tempDirectory, `engine-${process.pid}-${++spillSeq}`);
  mkdirSync(spill, { recursive: true });
  try {
    const proc = await EngineProcess.spawn({ ...opts.start, config: { ...opts.start.config, temp_directory: spill }, bootstrap, allowedDirectories }, opts);
    void proc.exited.then(() => rmSync(spill, { recursive: true, force: true }));
    return proc;
  } catch (e) {
    rmSync(spill, { recursive: true, force: true });
    throw e;
  }
}

/** How long an engine may stay past its bound after its statements were stopped, before it is killed. */
const OVER_GRACE_MS = 10_000;

export class EnginePool implements Engine {
  private readonly byUser = new Map<string, Slot>();
  private readonly live = new Set<Slot>();
  private readonly spareSlots: Slot[] = [];
  private readonly assigning = new Map<string, Promise<Slot>>();
  private sparesStarting = 0;
  /** Spares being started: a user who finds none ready waits for one of these rather than start another. */
  private readonly starting: Promise<Slot | null>[] = [];
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private watching = false;

  private constructor(
    private readonly opts: EnginePoolOptions,
    private readonly bootstrap: string[],
  ) {}

  /**
   * The first engine runs `prepare` on its privileged connection (recorded as
   * the bootstrap of every engine), locks itself, and waits as the first spare.
   */
  static async start(opts: EnginePoolOptions, prepare?: (admin: EngineConnection) => Promise<void>): Promise<EnginePool> {
    const first = await spawnEngine(opts, [], null);
    const recorded: string[] = [];
    try {
      if (prepare) {
        const { conn } = await first.call({ op: 'connect' });
        const admin = new RecordingConnection(first, conn, recorded);
        try {
          await prepare(admin);
        } finally {
          admin.close();
        }
      }
      await first.call({ op: 'lock', allowedDirectories: opts.start.allowedDirectories });
    } catch (e) {
      first.stop();
      throw e;
    }
    const pool = new EnginePool(opts, recorded);
    pool.adopt(first, null);
    pool.timers.push(setInterval(() => pool.reapIdle(), Math.max(1000, Math.min(opts.idleMs / 4, 30_000))));
    pool.timers.push(setInterval(() => void pool.watch(), opts.watchIntervalMs));
    for (const t of pool.timers) t.unref();
    pool.replenish();
    return pool;
  }

  async connect(user: string): Promise<EngineConnection> {
    if (this.closed) throw new Error('the engine pool is closed');
    for (let attempt = 0; ; attempt++) {
      const slot = await this.slotFor(user);
      try {
        const { conn } = await slot.proc.call({ op: 'connect' });
        const c = new EngineConnection(slot.proc, conn, (closed) => {
          slot.connections.delete(closed);
          if (slot.connections.size === 0) slot.idleSince = Date.now();
        });
        slot.connections.add(c);
        slot.idleSince = null;
        return c;
      } catch (e) {
        // the engine died between being chosen and answering: once more on a new one
        if (attempt > 0 || !slot.proc.lost) throw e;
      }
    }
  }

  /** The engine processes and who uses them (for tests and operators). */
  processes(): { id: number; pid: number | undefined; users: string[]; connections: number }[] {
    return [...this.live].map((s) => ({ id: s.proc.id, pid: s.proc.pid, users: [...s.users], connections: s.connections.size }));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    const all = [...this.live];
    for (const s of all) s.proc.stop();
    await Promise.all(all.map((s) => s.proc.exited));
  }

  private slotFor(user: string): Promise<Slot> {
    const have = this.byUser.get(user);
    if (have && !have.proc.lost) return Promise.resolve(have);
    let pending = this.assigning.get(user);
    if (!pending) {
      pending = this.assign(user).finally(() => this.assigning.delete(user));
      this.assigning.set(user, pending);
    }
    return pending;
  }

  private async assign(user: string): Promise<Slot> {
    let slot: Slot;
    let spare = this.spareSlots.shift();
    if (!spare && this.starting.length > 0) {
      // one is on its way: take it (starting another would only share the machine with it)
      await Promise.race(this.starting);
      spare = this.spareSlots.shift();
    }
    if (spare) slot = spare;
    else if (this.live.size + this.sparesStarting < this.opts.maxProcesses) slot = this.adopt(await this.spawn(), user);
    else slot = this.leastUsed();
    slot.users.add(user);
    this.byUser.set(user, slot);
    this.opts.log.info({ event: 'engine-assigned', user, engine: slot.proc.id, enginePid: slot.proc.pid, shared: slot.users.size > 1 }, 'engine process assigned');
    this.replenish();
    return slot;
  }

  private leastUsed(): Slot {
    let best: Slot | null = null;
    for (const s of this.live) {
      if (s.proc.lost || this.spareSlots.includes(s)) continue;
      if (!best || s.users.size + s.connections.size < best.users.size + best.connections.size) best = s;
    }
    if (!best) throw new Error('no engine process is available');
    return best;
  }

  private spawn(): Promise<EngineProcess> {
    return spawnEngine(this.opts, this.bootstrap, this.opts.start.allowedDirectories);
  }

  /** Track a started engine; it leaves the pool when it exits, whatever the reason. */
  private adopt(proc: EngineProcess, user: string | null): Slot {
    const slot: Slot = { proc, users: new Set(user ? [user] : []), connections: new Set(), idleSince: Date.now(), overSince: null };
    this.live.add(slot);
    if (!user) this.spareSlots.push(slot);
    void proc.exited.then(() => {
      this.live.delete(slot);
      const i = this.spareSlots.indexOf(slot);
      if (i >= 0) this.spareSlots.splice(i, 1);
      for (const u of slot.users) if (this.byUser.get(u) === slot) this.byUser.delete(u);
      if (!this.closed) this.replenish();
    });
    return slot;
  }

  /** Start spares in the background until `spares` wait (within maxProcesses). */
  private replenish(): void {
    while (
      !this.closed &&
      this.spareSlots.length + this.sparesStarting < this.opts.spares &&
      this.live.size + this.sparesStarting < this.opts.maxProcesses
    ) {
      this.sparesStarting++;
      const started: Promise<Slot | null> = this.spawn().then(
        (proc) => {
          this.sparesStarting--;
          if (this.closed) {
            proc.stop();
            return null;
          }
          return this.adopt(proc, null);
        },
        (e: unknown) => {
          this.sparesStarting--;
          this.opts.log.error({ err: e }, 'a spare engine process could not start');
          return null;
        },
      );
      this.starting.push(started);
      void started.then(() => this.starting.splice(this.starting.indexOf(started), 1));
    }
  }

  private reapIdle(): void {
    const now = Date.now();
    for (const s of this.live) {
      if (this.spareSlots.includes(s) || s.connections.size > 0 || s.idleSince === null) continue;
      if (now - s.idleSince < this.opts.idleMs) continue;
      for (const u of s.users) if (this.byUser.get(u) === s) this.byUser.delete(u);
      s.proc.stop();
      this.opts.log.info({ engine: s.proc.id, users: [...s.users] }, 'idle engine process stopped');
    }
  }

  /** The memory watchdog: one engine past its bound, or all of them past theirs. */
  private async watch(): Promise<void> {
    if (this.watching || this.closed) return;
    this.watching = true;
    try {
      const slots = [...this.live];
      const rss = await Promise.all(slots.map((s) => s.proc.rss()));
      const now = Date.now();
      let total = 0;
      let largest: { slot: Slot; bytes: number } | null = null;
      slots.forEach((s, i) => {
        const bytes = rss[i] ?? 0;
        total += bytes;
        if (!largest || bytes > largest.bytes) largest = { slot: s, bytes };
        const limit = this.opts.processMemoryBytes + this.opts.processOverheadBytes;
        if (bytes <= limit) {
          s.overSince = null;
          return;
        }
        s.overSince ??= now;
        if (s.users.size > 0 && ![...s.connections].some((c) => c.stopper)) {
          // Past its bound with no statement running: what it holds is retained memory, not a statement's.
          // Recycled now, between statements; waiting would only make the next statement to start the one stopped.
          this.opts.log.warn({ engine: s.proc.id, users: [...s.users], rss: bytes, limit }, 'engine process recycled: past its bound with no statement running');
          s.proc.killForMemory();
          return;
        }
        if (bytes > limit * 1.5 || now - s.overSince > OVER_GRACE_MS) {
          this.opts.log.error({ engine: s.proc.id, users: [...s.users], rss: bytes, limit }, 'engine process killed: its memory stayed past its bound');
          s.proc.killForMemory();
          return;
        }
        this.stopStatements(s, bytes, limit);
      });
      const top = largest as { slot: Slot; bytes: number } | null;
      const totalLimit = this.opts.totalMemoryBytes + this.opts.processOverheadBytes * slots.length;
      if (top && total > totalLimit) this.stopStatements(top.slot, total, totalLimit);
    } finally {
      this.watching = false;
    }
  }

  private stopStatements(s: Slot, bytes: number, limit: number): void {
    let stopped = 0;
    for (const c of s.connections) {
      if (!c.stopper) continue;
      c.stopper('memory');
      stopped++;
    }
    if (stopped > 0) this.opts.log.warn({ engine: s.proc.id, users: [...s.users], rss: bytes, limit, stopped }, 'statements stopped: engine memory past its bound');
  }
}
