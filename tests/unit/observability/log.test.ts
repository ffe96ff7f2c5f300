import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, readableLogger } from '../../../shared/log.ts';

describe('the logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('writes one Powertools JSON line per entry, with the keys of its child chain and errors as objects', () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'PetApi-test');
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });

    const log = createLogger().child({ consumer: 'webhooks.deliver', event_id: 'evt-1' }).child({ attempt: 2 });
    log.error('delivery failed', { status: 502, error: new Error('bad gateway') });

    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      level: 'ERROR',
      message: 'delivery failed',
      service: 'PetApi-test',
      consumer: 'webhooks.deliver',
      event_id: 'evt-1',
      attempt: 2,
      status: 502,
      error: { name: 'Error', message: 'bad gateway' },
    });
  });

  it('keeps the keys of each child to its own lines: siblings and the parent never share them', () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });

    const root = createLogger();
    const first = root.child({ request_id: 'r-1', route: 'health.get' });
    const second = root.child({ request_id: 'r-2', route: 'breeds.list' });
    first.child({ account_id: 'acc-1' }).info('authenticated');
    second.info('GET /v1/breeds 200 3 ms', { status: 200, route: 'breeds.list' });
    first.info('GET /v1/health 200 1 ms', { status: 200 });
    root.info('container ready');

    const [authenticated, breeds, health, ready] = written.map((line) => JSON.parse(line));
    expect(authenticated).toMatchObject({ request_id: 'r-1', route: 'health.get', account_id: 'acc-1' });
    expect(breeds).toMatchObject({ request_id: 'r-2', route: 'breeds.list', status: 200 });
    expect(breeds).not.toHaveProperty('account_id');
    expect(health).toMatchObject({ request_id: 'r-1', route: 'health.get', status: 200 });
    expect(health).not.toHaveProperty('account_id');
    expect(ready).not.toHaveProperty('request_id');
    // The keys stand where Powertools puts a child's persistent keys: after its own, before the entry's fields.
    expect(Object.keys(health)).toEqual([
      'level',
      'message',
      'timestamp',
      'service',
      'sampling_rate',
      'request_id',
      'route',
      'status',
    ]);
  });

  it('reads locally as one line: time, whose line it is, the message and what the message does not already say', () => {
    const lines: string[] = [];
    const log = readableLogger((line) => lines.push(line)).child({ request_id: 'r-1', route: 'breeds.list' });

    log.info('GET /v1/breeds 200 12 ms', { method: 'GET', path: '/v1/breeds', status: 200, ms: 12 });
    log.child({ account_id: 'acc-1' }).info('page served', { count: 20 });

    expect(lines).toEqual([
      expect.stringMatching(/^ {2}\d\d:\d\d:\d\d breeds\.list +GET \/v1\/breeds 200 12 ms$/),
      expect.stringMatching(/^ {2}\d\d:\d\d:\d\d breeds\.list +page served count=20$/),
    ]);
  });

  it('never throws on fields it cannot print (undefined, circular, BigInt)', () => {
    const lines: string[] = [];
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    readableLogger((line) => lines.push(line)).info('vision model unavailable', {
      cause: undefined,
      circular,
      big: 10n,
      reason: 'throttled',
    });
    expect(lines[0]).toMatch(
      /vision model unavailable circular=\[object Object\] big=\[object BigInt\] reason=throttled$/,
    );
  });

  it('prints the stack of a logged error locally', () => {
    const lines: string[] = [];
    readableLogger((line) => lines.push(line))
      .child({ consumer: 'pets.process-photo' })
      .error('message failed; SQS will hand it back', { error: new Error('disk full') });

    expect(lines[0]).toMatch(/pets\.process-photo +ERROR message failed; SQS will hand it back$/);
    expect(lines[1]).toContain('Error: disk full');
  });
});
