// The one per-message wrapper of every queue consumer: parses and validates each message, runs the core call, and
// answers SQS with partial batch failures. A failure is either retryable (SQS hands the message back after its
// visibility timeout, and to the dead-letter queue in the end) or permanent: a message that can never succeed
// (malformed, or refused by the core with a non-retryable AppError) is logged as PermanentFailure and removed, so it
// neither burns retries nor holds up its neighbours. An alarm counts PermanentFailure log lines. A message whose own
// sends SQS refused as the sender's fault (QueueRefusal) is sound but cannot be passed on as it stands: a consumer that
// sends parks it in its queue's dead-letter queue at once (alarmed, redriven once the cause is fixed).
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { type Deps, getDeps } from '../deps.ts';
import { QueueRefusal } from '../aws/sqs-text.ts';
import { AppError } from '../errors.ts';
import { traceIfSampled } from '../observability.ts';

/** The word the alarm's log metric filter looks for (infra/constructs/consumers.ts). */
export const PERMANENT_FAILURE = 'PermanentFailure';

export interface QueueConsumerOptions<S extends z.ZodMiniType, D extends Pick<Deps, 'log'>> {
  /** The consumer table's id, logged with every failure. */
  id: string;
  /** The message body after JSON.parse. */
  message: S;
  handle: (message: z.output<S>, deps: D, record: SQSRecord) => Promise<void>;
  /** Composition of the entry point's ports; the shared dependencies by default. */
  deps?: () => D;
  /** `parallel` for independent messages (the default); `sequential` to bound memory (one photo at a time). */
  concurrency?: 'parallel' | 'sequential';
  /**
   * Consumers that send to a queue: parks a message (the parsed body, as received) in this queue's dead-letter queue
   * (shared/aws/sqs.ts sendToDeadLetterQueue). Without it, a refused message is handed back like any failure.
   */
  deadLetter?: (deps: D, message: unknown, reason: { consumer: string; refusal: QueueRefusal }) => Promise<void>;
}

type Outcome = 'done' | 'retry' | 'permanent';

export function queueConsumer<S extends z.ZodMiniType, D extends Pick<Deps, 'log'> = Deps>(
  options: QueueConsumerOptions<S, D>,
) {
  const resolveDeps = options.deps ?? (getDeps as unknown as () => D);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = resolveDeps();
    await traceIfSampled();
    const run = (record: SQSRecord) => processRecord(options, deps, record);
    const outcomes: Outcome[] = [];
    if (options.concurrency === 'sequential') for (const record of event.Records) outcomes.push(await run(record));
    else outcomes.push(...(await Promise.all(event.Records.map(run))));
    return {
      batchItemFailures: event.Records.filter((_, i) => outcomes[i] === 'retry').map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
}

async function processRecord<S extends z.ZodMiniType, D extends Pick<Deps, 'log'>>(
  options: QueueConsumerOptions<S, D>,
  deps: D,
  record: SQSRecord,
): Promise<Outcome> {
  const context = { consumer: options.id, messageId: record.messageId };
  const parsed = parseMessage(options.message, record.body);
  const log = deps.log.child(messageKeys(options.id, parsed.ok ? parsed.value : undefined, record));
  if (!parsed.ok) {
    log.error(`${PERMANENT_FAILURE}: malformed message dropped`, {
      ...context,
      problem: parsed.problem,
      body: record.body.slice(0, 500),
    });
    return 'permanent';
  }
  const started = performance.now();
  try {
    await options.handle(parsed.value, { ...deps, log }, record);
    log.info('message handled', { ms: Math.round(performance.now() - started) });
    return 'done';
  } catch (error) {
    const park = options.deadLetter;
    if (error instanceof QueueRefusal && park)
      return deadLetter(
        () => park(deps, JSON.parse(record.body), { consumer: options.id, refusal: error }),
        { ...context, code: error.code, reason: error.detail },
        log,
      );
    if (error instanceof AppError && !error.retryable) {
      log.error(`${PERMANENT_FAILURE}: message refused for good`, { ...context, code: error.code, error });
      return 'permanent';
    }
    log.error('message failed; SQS will hand it back', { ...context, error });
    return 'retry';
  }
}

/** Dead-letters a message whose sends SQS refused; if that send fails too, SQS hands it back (and redrives it later). */
async function deadLetter(
  park: () => Promise<void>,
  fields: Record<string, unknown>,
  log: Deps['log'],
): Promise<Outcome> {
  try {
    await park();
    log.error('message dead-lettered: the queue refused what it was to send', fields);
    return 'permanent';
  } catch (error) {
    log.error('the queue refused what the message was to send, and dead-lettering failed; SQS will hand it back', {
      ...fields,
      error,
    });
    return 'retry';
  }
}

/**
 * What every log line about one message carries: consumer, message id, the event it is about (a domain event's
 * `id`, a delivery job's `event_id`) and its attempt (a delivery job counts its own; otherwise SQS's receive count).
 */
function messageKeys(consumer: string, message: unknown, record: SQSRecord): Record<string, unknown> {
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const eventId = fields.event_id ?? fields.id;
  return {
    consumer,
    message_id: record.messageId,
    ...(typeof eventId === 'string' && { event_id: eventId }),
    attempt:
      typeof fields.attempt === 'number' ? fields.attempt : Number(record.attributes?.ApproximateReceiveCount ?? 1),
  };
}

function parseMessage<S extends z.ZodMiniType>(
  schema: S,
  body: string,
): { ok: true; value: z.output<S> } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const result = z.safeParse(schema, json);
  return result.success
    ? { ok: true, value: result.data }
    : {
        ok: false,
        problem: result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      };
}
