/**
 * A small leveled logger with one namespace per module, writing one line per
 * event to stderr (stdout is kept for command output such as new keys).
 * @module
 */

/** Log levels, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** A namespaced logger. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger for a sub-namespace, e.g. `http` → `http:pages`. */
  child(namespace: string): Logger;
}

/**
 * Creates a logger.
 * @param write where lines go (defaults to stderr); tests pass a collector.
 * @example const log = createLogger('info', 'server'); log.info('listening', { url });
 */
export function createLogger(level: LogLevel, namespace = 'pressroom', write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger {
  const threshold = ORDER[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < threshold) return;
    const extra = fields
      ? ' ' + Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`).join(' ')
      : '';
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} [${namespace}] ${message}${extra}`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (ns) => createLogger(level, `${namespace}:${ns}`, write),
  };
}
