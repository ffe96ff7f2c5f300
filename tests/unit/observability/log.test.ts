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
