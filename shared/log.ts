// Logging. Deployed and in tests: Powertools for AWS Lambda's Logger, one JSON line per entry (level, message,
// timestamp, service, and the keys of the request or message being handled). Locally (`npm start` sets
// LOG_FORMAT=readable): one readable line per entry. LOG_LEVEL=silent silences both (handler tests).
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';

export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose every line also carries `keys`: the request (request id, route, account) or message being handled. */
  child(keys: LogFields): Logger;
}

const silent = () => process.env.LOG_LEVEL === 'silent';

export function createLogger(): Logger {
  if (process.env.LOG_FORMAT === 'readable') return readableLogger((line) => process.stdout.write(`${line}\n`));
  return powertoolsLogger(new PowertoolsLogger({ ...(silent() && { logLevel: 'SILENT' }) }));
}

/**
 * A child passes its keys with each entry to the one Powertools Logger, which prints them where a child's persistent
 * keys would go (before the entry's own fields). Powertools' createChild builds a whole Logger (a Console of its own,
 * the environment read again): tens of microseconds and garbage on every request and message.
 */
function powertoolsLogger(logger: PowertoolsLogger, keys?: LogFields): Logger {
  const withKeys = (fields: LogFields = {}) => (keys ? { ...keys, ...fields } : fields);
  return {
    info: (message, fields) => logger.info(message, withKeys(fields)),
    error: (message, fields) => logger.error(message, withKeys(fields)),
    child: (more) => powertoolsLogger(logger, { ...keys, ...more }),
  };
}

/**
 * `12:00:01 webhooks.deliver  webhook delivery attempted  status=200 ms=41`: the time, whose line it is (route or
 * consumer), the message, and the fields the message does not already say. Errors add their stack.
 */
export function readableLogger(write: (line: string) => void, keys: LogFields = {}): Logger {
  const owner = String(keys.route ?? keys.consumer ?? '');
  const emit = (level: 'INFO' | 'ERROR', message: string, fields: LogFields = {}) => {
    if (silent()) return;
    const time = new Date().toISOString().slice(11, 19);
    const shown = Object.entries(fields)
      .filter(([, value]) => value !== undefined && !(value instanceof Error) && !message.includes(readable(value)))
      .map(([key, value]) => `${key}=${readable(value)}`);
    const errors = Object.values(fields).filter((value): value is Error => value instanceof Error);
    write(
      [`  ${time}`, owner.padEnd(22), level === 'ERROR' ? `ERROR ${message}` : message, ...shown]
        .filter(Boolean)
        .join(' '),
    );
    for (const error of errors) write(`      ${error.stack ?? error.message}`);
  };
  return {
    info: (message, fields) => emit('INFO', message, fields),
    error: (message, fields) => emit('ERROR', message, fields),
    child: (more) => readableLogger(write, { ...keys, ...more }),
  };
}

/** Never throws: a log line must not turn a handled failure into a 500. */
function readable(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Hands each entry to `onEntry` with the keys of its child chain apart (tests and benchmarks). */
export function callbackLogger(
  onEntry: (level: 'INFO' | 'ERROR', message: string, fields: LogFields, keys: LogFields) => void,
  keys: LogFields = {},
): Logger {
  return {
    info: (message, fields = {}) => onEntry('INFO', message, fields, keys),
    error: (message, fields = {}) => onEntry('ERROR', message, fields, keys),
    child: (more) => callbackLogger(onEntry, { ...keys, ...more }),
  };
}
