// One JSON line per entry: Lambda's JSON log format and Logs Insights read it as fields.
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Handler tests set LOG_LEVEL=silent: expected failures then leave the test output readable. */
const silent = () => process.env.LOG_LEVEL === 'silent';

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const emit = (level: string, message: string, fields: Record<string, unknown> = {}) =>
    silent() ||
    write(JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields }, errorReplacer));
  return {
    info: (message, fields) => emit('INFO', message, fields),
    error: (message, fields) => emit('ERROR', message, fields),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
