// One analysis question to the vision model, within one time budget: the answer validated against the kind's zod
// schema, an invalid answer asked again once, every failure a 503 that says what happened.
import * as z from 'zod/mini';
import { AppError } from '../../errors.ts';
import { METRIC, recordMetric } from '../../observability.ts';
import {
  InvalidAnswer,
  type ModelImage,
  type UnavailableReason,
  type VisionModel,
  VisionUnavailable,
} from '../../ports/vision-model.ts';
import { type AnalysisKind, type AnswerOf, answerJsonSchema, KINDS, type PromptContext } from './kinds.ts';

/** First answer plus one retry when the answer is not valid. */
const ATTEMPTS = 2;

export async function askModel<K extends AnalysisKind>(
  model: VisionModel,
  kind: K,
  context: PromptContext,
  images: ModelImage[],
  timeoutMs: number,
): Promise<AnswerOf<K>> {
  const definition = KINDS[kind];
  const signal = AbortSignal.timeout(timeoutMs);
  const question = {
    name: kind,
    instructions: definition.instructions,
    prompt: definition.prompt(context),
    images,
    schema: answerJsonSchema(kind),
    signal,
  };
  let problem = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let raw: unknown;
    try {
      raw = await model.ask(question);
    } catch (error) {
      if (!(error instanceof InvalidAnswer)) throw error;
      problem = error.message;
      continue;
    }
    const parsed = z.safeParse(definition.answer, raw);
    if (parsed.success) return parsed.data as AnswerOf<K>;
    problem = parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ');
  }
  throw new VisionUnavailable('invalid_answer', `The vision model answered twice outside the schema (${problem})`);
}

/** The outcomes that mean the provider failed us (throttling and missing configuration are ours); alarmed. */
export const PROVIDER_FAULTS = [
  'provider_error',
  'unreachable',
  'timeout',
  'invalid_answer',
] as const satisfies readonly UnavailableReason[];

/** Counts each vision-model call by outcome (`ok`, or why it gave no answer) and records how long it took. */
export async function observeProviderCall<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome = 'ok';
  try {
    return await call();
  } catch (error) {
    outcome = error instanceof VisionUnavailable ? error.reason : 'error';
    throw error;
  } finally {
    recordMetric(METRIC.analysisCalls, { outcome });
    recordMetric(METRIC.analysisProviderLatency, {}, Math.round(performance.now() - started), 'Milliseconds');
  }
}

const RETRY_AFTER_SECONDS: Record<UnavailableReason, number> = {
  not_configured: 300,
  timeout: 30,
  throttled: 30,
  provider_error: 30,
  unreachable: 60,
  refused: 60,
  invalid_answer: 30,
};

/** The spec's 503 for a provider failure, with `Retry-After` and the reason as `code`-level detail. */
export function analysisUnavailable(error: VisionUnavailable): AppError {
  return new AppError(503, error.message, {
    code: 'analysis_unavailable',
    details: { reason: error.reason },
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS[error.reason]) },
  });
}
