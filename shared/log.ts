// One JSON line per entry: Lambda's JSON log format and Logs Insights read it as fields.
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const emit = (level: string, message: string, fields: Record<string, unknown> = {}) =>
    write(JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields }, errorReplacer));
  return {
    info: (message, fields) => emit('INFO', message, fields),
    error: (message, fields) => emit('ERROR', message, fields),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
