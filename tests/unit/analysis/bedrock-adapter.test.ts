import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { BEDROCK_MAX_ATTEMPTS, bedrockClient, bedrockModel } from '../../../shared/adapters/vision-model/aws.ts';
import { askModel } from '../../../shared/domain/analysis/ask.ts';
import type { PromptContext } from '../../../shared/domain/analysis/kinds.ts';
import type { ModelImage, VisionUnavailable } from '../../../shared/ports/vision-model.ts';

const MODEL_ID = 'eu.amazon.nova-lite-v1:0';
const context: PromptContext = {
  pet: { name: 'Mia', species: 'cat', breeds: [], sex: null, neutered: null, ageMonths: null, weightKg: null },
  lang: 'fr',
  imageCount: 2,
};
const images: ModelImage[] = [
  { bytes: new Uint8Array([0xff, 0xd8, 1]), mediaType: 'image/jpeg' },
  { bytes: new Uint8Array([0xff, 0xd8, 2]), mediaType: 'image/jpeg' },
];
const toolAnswer = (name: string, input: unknown) => ({
  stopReason: 'tool_use' as const,
  output: {
    message: { role: 'assistant' as const, content: [{ toolUse: { toolUseId: 't1', name, input: input as never } }] },
  },
  usage: { inputTokens: 1500, outputTokens: 150, totalTokens: 1650 },
  metrics: { latencyMs: 900 },
});
const awsError = (name: string) => Object.assign(new Error(name), { name, $metadata: {} });

const bedrock = mockClient(BedrockRuntimeClient);
const model = () => bedrockModel({ modelId: MODEL_ID, client: new BedrockRuntimeClient({ region: 'eu-west-1' }) });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error as VisionUnavailable,
  );

describe('Bedrock adapter (Converse API, SDK mocked)', () => {
  beforeEach(() => bedrock.reset());

  it('sends image blocks, the instructions as system text and one forced tool whose input schema is the answer schema', async () => {
    const answer = {
      muscle_condition: 'mild_loss',
      confidence: 0.7,
      explanation: 'Légère perte',
      recommendations: ['Consulter'],
    };
    bedrock.on(ConverseCommand).resolves(toolAnswer('muscle_condition_score', answer));
    await expect(askModel(model(), 'muscle_condition_score', context, images, 5000)).resolves.toEqual(answer);

    const input = bedrock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.modelId).toBe(MODEL_ID);
    expect(input.system?.[0]?.text).toContain('muscle condition');
    const content = input.messages?.[0]?.content ?? [];
    expect(content[0]?.text).toContain('language code fr');
    expect(content.slice(1).map((b) => b.image?.format)).toEqual(['jpeg', 'jpeg']);
    expect(input.toolConfig?.toolChoice).toEqual({ tool: { name: 'muscle_condition_score' } });
    const schema = input.toolConfig?.tools?.[0]?.toolSpec?.inputSchema?.json as Record<string, any>;
    expect(schema.required).toEqual(['muscle_condition', 'confidence', 'explanation', 'recommendations']);
    expect(schema.properties.muscle_condition.enum).toEqual(['normal', 'mild_loss', 'moderate_loss', 'severe_loss']);
    expect(schema.$schema).toBeUndefined();
  });

  it('an answer outside the schema is asked again once, then invalid_answer', async () => {
    bedrock
      .on(ConverseCommand)
      .resolvesOnce(
        toolAnswer('estimated_age', {
          age_months: 30,
          age_range_months: { min: 40, max: 20 },
          confidence: 1,
          reasons: 'x',
        }),
      )
      .resolves(
        toolAnswer('estimated_age', {
          age_months: 30,
          age_range_months: { min: 20, max: 40 },
          confidence: 1,
          reasons: 'x',
        }),
      );
    await expect(askModel(model(), 'estimated_age', context, images, 5000)).resolves.toMatchObject({ age_months: 30 });
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);

    bedrock.reset();
    bedrock
      .on(ConverseCommand)
      .resolves({ stopReason: 'end_turn', output: { message: { role: 'assistant', content: [{ text: 'a cat' }] } } });
    expect((await failure(askModel(model(), 'estimated_age', context, images, 5000))).reason).toBe('invalid_answer');
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);
  });

  it('maps throttling, model timeouts, access problems and guardrails to VisionUnavailable reasons', async () => {
    const cases: [unknown, string][] = [
      [awsError('ThrottlingException'), 'throttled'],
      [awsError('ModelTimeoutException'), 'provider_error'],
      [awsError('ServiceUnavailableException'), 'provider_error'],
      [awsError('AccessDeniedException'), 'provider_error'],
    ];
    for (const [error, reason] of cases) {
      bedrock.reset();
      bedrock.on(ConverseCommand).rejects(error as Error);
      expect((await failure(askModel(model(), 'genealogy', context, images, 5000))).reason).toBe(reason);
      expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(1);
    }
    bedrock.reset();
    bedrock
      .on(ConverseCommand)
      .resolves({ stopReason: 'guardrail_intervened', output: { message: { role: 'assistant', content: [] } } });
    expect((await failure(askModel(model(), 'genealogy', context, images, 5000))).reason).toBe('refused');
  });

  it('gives up at the deadline: an aborted call is a timeout', async () => {
    bedrock
      .on(ConverseCommand)
      .callsFake(() => new Promise((_, reject) => setTimeout(() => reject(awsError('AbortError')), 200)));
    expect((await failure(askModel(model(), 'genealogy', context, images, 50))).reason).toBe('timeout');
  });

  it('retries throttling a bounded number of times (3 attempts), then reports throttled', async () => {
    bedrock.restore();
    let attempts = 0;
    const client = bedrockClient({
      region: 'eu-west-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      requestHandler: {
        handle: async () => {
          attempts += 1;
          return {
            response: {
              statusCode: 429,
              headers: { 'x-amzn-errortype': 'ThrottlingException', 'content-type': 'application/json' },
              body: Readable.from([Buffer.from(JSON.stringify({ message: 'Too many requests' }))]),
            },
          };
        },
      } as never,
    });
    const throttled = bedrockModel({ modelId: MODEL_ID, client });
    expect((await failure(askModel(throttled, 'genealogy', context, images, 20_000))).reason).toBe('throttled');
    expect(attempts).toBe(BEDROCK_MAX_ATTEMPTS);
    bedrock.reset();
  });
});
