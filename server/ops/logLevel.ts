/**
 * A pino logger whose level a reload can change: pino's child loggers keep
 * the level they were made with, so every child is tracked (weakly) and set
 * along with the root.
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino';

export type LogLevel = Level | 'silent';

export interface LeveledLogger {
  log: Logger;
  setLevel(level: LogLevel): void;
}

export function leveledLogger(level: LogLevel, destination: DestinationStream): LeveledLogger {
  const children = new Set<WeakRef<Logger>>();
  const log = pino({ level, onChild: (child) => void children.add(new WeakRef(child)) }, destination);
  return {
    log,
    setLevel(next) {
      log.level = next;
      for (const ref of children) {
        const child = ref.deref();
        if (child) child.level = next;
        else children.delete(ref);
      }
    },
  };
}
