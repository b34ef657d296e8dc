/**
 * Log lines of a worker thread, written by the thread that started it: the
 * thread's logger posts each line (`forwardingLogger`), the starting thread
 * writes it under its own logger and namespace (`threadLogWriter`). Used by
 * the search keeper's thread and the build thread.
 * @module
 */
import type { Logger } from './logger.ts';

/** One log line sent from a thread. */
export interface ThreadLogLine {
  readonly namespace: readonly string[];
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: Record<string, unknown>;
}

/** A logger whose lines go to `post` (the thread's port), to be written by the thread that started this one. */
export function forwardingLogger(post: (line: ThreadLogLine) => void, namespace: readonly string[] = []): Logger {
  const emit = (level: ThreadLogLine['level']) => (message: string, fields?: Record<string, unknown>) => {
    try {
      post({ namespace, level, message, ...(fields ? { fields } : {}) });
    } catch {
      // A field that cannot be copied to the other thread (a function, a socket): its text instead.
      post({ namespace, level, message, fields: JSON.parse(JSON.stringify(fields ?? {})) as Record<string, unknown> });
    }
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), child: (ns) => forwardingLogger(post, [...namespace, ns]) };
}

/** Writes lines sent by a thread under `log` (each namespace's child logger made once). */
export function threadLogWriter(log: Logger): (line: ThreadLogLine) => void {
  const loggers = new Map<string, Logger>();
  return (line) => {
    const key = line.namespace.join(':');
    let logger = loggers.get(key);
    if (!logger) {
      logger = line.namespace.reduce((l, ns) => l.child(ns), log);
      loggers.set(key, logger);
    }
    logger[line.level](line.message, line.fields);
  };
}
