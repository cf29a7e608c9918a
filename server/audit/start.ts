/** The auditor a gateway runs with, from its configuration. */
import type { Logger } from 'pino';
import { Auditor } from './auditor.js';
import type { AuditConfig } from './config.js';
import { loadRedactor } from './redact.js';
import { HttpBatchSink, LineSink, type AuditSink } from './sinks.js';

export async function startAuditor(cfg: AuditConfig, defaultRepo: string, log: Logger): Promise<Auditor> {
  const sinks: AuditSink[] = [];
  if (cfg.destination === 'stdout') sinks.push(new LineSink({ fd: 1 }, log));
  if (cfg.destination === 'file') sinks.push(new LineSink({ file: cfg.file! }, log));
  if (cfg.http) sinks.push(new HttpBatchSink(cfg.http, log));
  if (sinks.length === 0) return Auditor.off(log);
  await loadRedactor();
  return new Auditor(sinks, { defaultRepo: cfg.repo ?? defaultRepo, log }, cfg.clusterName ?? null);
}
