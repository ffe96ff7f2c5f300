// Amazon Bedrock Runtime, Converse API: photos as image blocks, the answer forced through one tool whose input
// schema is the answer's JSON Schema (works with Claude and Amazon Nova vision models).
import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  ConverseCommand,
  type ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { InvalidAnswer, type VisionModel, VisionUnavailable } from '../../ports/vision-model.ts';
import { traced } from '../../observability.ts';

/** First try plus two retries; the SDK's standard mode backs off on throttling and transient 5xx. */
export const BEDROCK_MAX_ATTEMPTS = 3;
const MAX_OUTPUT_TOKENS = 2048;

const THROTTLED = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'TooManyRequestsException']);
const TRANSIENT = new Set([
  'ModelTimeoutException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelNotReadyException',
  'ModelErrorException',
]);

/** The client the adapter uses: bounded retries with the SDK's standard backoff (throttling included). */
export const bedrockClient = (config: BedrockRuntimeClientConfig = {}) =>
  traced(new BedrockRuntimeClient({ maxAttempts: BEDROCK_MAX_ATTEMPTS, retryMode: 'standard', ...config }));

export function bedrockModel(options: { modelId: string; client?: BedrockRuntimeClient }): VisionModel {
  const client = options.client ?? bedrockClient();
  return {
    provider: 'bedrock',
    modelId: options.modelId,
    async ask(question) {
      let output: ConverseCommandOutput;
      try {
        output = await client.send(
          new ConverseCommand({
            modelId: options.modelId,
            system: [{ text: question.instructions }],
            messages: [
              {
                role: 'user',
                content: [
                  { text: question.prompt },
                  ...question.images.map((image) => ({
                    image: { format: 'jpeg' as const, source: { bytes: image.bytes } },
                  })),
                ],
              },
            ],
            toolConfig: {
              tools: [
                {
                  toolSpec: {
                    name: question.name,
                    description: `Record the ${question.name.replaceAll('_', ' ')} of the pet in the photos`,
                    inputSchema: { json: question.schema as never },
                  },
                },
              ],
              toolChoice: { tool: { name: question.name } },
            },
            inferenceConfig: { temperature: 0, maxTokens: MAX_OUTPUT_TOKENS },
          }),
          { abortSignal: question.signal },
        );
      } catch (error) {
        throw unavailable(error, question.signal);
      }
      if (output.stopReason === 'guardrail_intervened' || output.stopReason === 'content_filtered')
        throw new VisionUnavailable('refused', 'The vision model refused to answer');
      const toolUse = output.output?.message?.content?.find((block) => block.toolUse)?.toolUse;
      if (!toolUse || toolUse.name !== question.name) throw new InvalidAnswer('The model did not use the answer tool');
      return toolUse.input;
    },
  };
}

function unavailable(error: unknown, signal: AbortSignal): VisionUnavailable {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  if (signal.aborted || name === 'AbortError')
    return new VisionUnavailable('timeout', 'The vision model did not answer in time');
  if (THROTTLED.has(name))
    return new VisionUnavailable('throttled', 'Bedrock is throttling the vision model', { cause: error });
  if (TRANSIENT.has(name))
    return new VisionUnavailable('provider_error', `Bedrock could not answer (${name})`, { cause: error });
  // Access denied, unknown model, validation: a configuration fault, still not the caller's 500.
  return new VisionUnavailable('provider_error', `Bedrock rejected the request (${name || 'unknown error'})`, {
    cause: error,
  });
}
