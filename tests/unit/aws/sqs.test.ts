import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { sendMessage, sendMessageBatches } from '../../../shared/aws/sqs.ts';
import { QueueRefusal } from '../../../shared/aws/sqs-text.ts';
import { CHARACTER_CLASSES } from '../../support/queue-characters.ts';
import { queueRefusingWhatQueuesRefuse } from '../../support/strict-queue.ts';

const sqs = mockClient(SQSClient);
const client = new SQSClient({ region: 'us-east-1' });
const QUEUE = 'https://sqs.test/q';
const noError = { onError: () => {} };
const values = Object.entries(CHARACTER_CLASSES).map(([name, text]) => ({ name, text, list: [text, { text }] }));
const sentBodies = () => [
  ...sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input.MessageBody!),
  ...sqs.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => e.MessageBody!)),
];

beforeEach(() => sqs.reset());

describe('the sending helper', () => {
  it('writes every class of character so that the queue takes it and JSON.parse gives back the very strings', async () => {
    queueRefusingWhatQueuesRefuse(sqs);

    for (const value of values) await sendMessage(client, QUEUE, { value });
    const unsent = await sendMessageBatches(
      client,
      QUEUE,
      values.map((value) => ({ value })),
      noError,
    );

    expect(unsent).toEqual([]);
    const bodies = sentBodies();
    for (const body of bodies) expect(body).toMatch(/^[\x20-\x7e]*$/);
    expect(bodies.map((body) => JSON.parse(body))).toEqual([...values, ...values]);
  });

  it('escapes attribute values the same way', async () => {
    queueRefusingWhatQueuesRefuse(sqs);

    await sendMessage(client, QUEUE, { value: {}, attributes: { why: 'dog \u{1F436}\uffff' } });

    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageAttributes).toEqual({
      why: { DataType: 'String', StringValue: 'dog \\ud83d\\udc36\\uffff' },
    });
  });

  it("tells SQS's refusal of a message (the sender's fault) from a passing failure, one by one", async () => {
    sqs
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('Invalid characters found.'), { name: 'InvalidMessageContents' }));
    const refused = await sendMessage(client, QUEUE, { value: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueRefusal);
    expect(refused).toMatchObject({ code: 'InvalidMessageContents', detail: 'Invalid characters found.' });

    sqs.reset();
    const legacyName = 'AWS.SimpleQueueService.InvalidMessageContents';
    sqs.on(SendMessageCommand).rejects(Object.assign(new Error('Invalid characters found.'), { name: legacyName }));
    await expect(sendMessage(client, QUEUE, { value: {} })).rejects.toMatchObject({ code: 'InvalidMessageContents' });

    sqs.reset();
    sqs.on(SendMessageCommand).rejects(Object.assign(new Error('slow down'), { name: 'RequestThrottled' }));
    const passing = await sendMessage(client, QUEUE, { value: {} }).catch((error: unknown) => error);
    expect(passing).not.toBeInstanceOf(QueueRefusal);
    expect(passing).toMatchObject({ name: 'RequestThrottled' });
  });

  it('and in batches: a sender-fault entry is refused, any other failure is unsent for a passing reason', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [],
      Failed: [
        { Id: '1', SenderFault: true, Code: 'InvalidParameterValue', Message: 'Message must be shorter' },
        { Id: '2', SenderFault: false, Code: 'InternalError' },
      ],
    });

    const unsent = await sendMessageBatches(
      client,
      QUEUE,
      [0, 1, 2, 3].map((n) => ({ value: { n } })),
      noError,
    );

    expect(unsent).toEqual([
      {
        index: 1,
        refusal: expect.objectContaining({ code: 'InvalidParameterValue', detail: 'Message must be shorter' }),
      },
      { index: 2 },
    ]);
    expect(unsent[0]!.refusal).toBeInstanceOf(QueueRefusal);
  });

  it('stops an ordered send at a passing failure, not at a refusal', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '0', SenderFault: true, Code: 'InvalidParameterValue' }] })
      .resolvesOnce({ Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }] });
    const messages = Array.from({ length: 25 }, (_, n) => ({ value: { n } }));

    const unsent = await sendMessageBatches(client, QUEUE, messages, { ...noError, stopAtFailure: true });

    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(2);
    expect(unsent.map((u) => [u.index, u.refusal !== undefined])).toEqual([
      [0, true],
      [10, false],
      ...Array.from({ length: 5 }, (_, n) => [20 + n, false]),
    ]);
  });

  it('counts a failed call as a passing failure of its whole batch', async () => {
    const errors: unknown[] = [];
    sqs.on(SendMessageBatchCommand).rejects(new Error('network down'));

    const unsent = await sendMessageBatches(client, QUEUE, [{ value: 1 }, { value: 2 }], {
      onError: (error) => errors.push(error),
    });

    expect(unsent).toEqual([{ index: 0 }, { index: 1 }]);
    expect(errors).toHaveLength(1);
  });
});
