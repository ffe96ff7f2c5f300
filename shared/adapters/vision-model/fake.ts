// A deterministic vision model for tests of the analysis flow, next to the Bedrock and OpenAI-compatible adapters:
// in-process, no server. Answers follow the question's JSON Schema (or a rule's answer); rules make it misbehave the
// way a provider can (each failure is the VisionUnavailable or InvalidAnswer the real adapters raise), and every
// question is recorded. scripts/local/fake-vision-server.ts serves the same answers and rules over HTTP for the
// local stack, where the service runs in another process.
import { InvalidAnswer, type VisionModel, type VisionQuestion, VisionUnavailable } from '../../ports/vision-model.ts';

export type FakeMode = 'ok' | 'fail' | 'throttle' | 'slow' | 'invalid_json' | 'schema_invalid' | 'refuse';

export interface FakeRule {
  /** Applies when the prompt contains this text; absent: every call. */
  match?: string;
  /** Applies only to questions with this answer name (`json_schema.name`, e.g. `genealogy`). */
  name?: string;
  mode: FakeMode;
  /** `slow`: milliseconds before answering. */
  delayMs?: number;
  /** `ok`: this answer instead of one generated from the schema. */
  answer?: unknown;
  /** Applies to this many calls, then is dropped. */
  times?: number;
}

/** The first rule that applies to the call, used up once its `times` run out (removed from `rules`). */
export function takeRule(rules: FakeRule[], call: { name: string; prompt: string }): FakeRule | undefined {
  const rule = rules.find((r) => (!r.match || call.prompt.includes(r.match)) && (!r.name || r.name === call.name));
  if (rule?.times !== undefined && --rule.times <= 0) rules.splice(rules.indexOf(rule), 1);
  return rule;
}

/** A question as the fake recorded it. */
export interface FakeCall {
  name: string;
  /** The instructions (system prompt). */
  system: string;
  prompt: string;
  images: VisionQuestion['images'];
}

export interface FakeVisionModel extends VisionModel {
  readonly calls: FakeCall[];
  /** Steers the next answers; tests push rules and clear the list. */
  rules: FakeRule[];
}

export function fakeVisionModel(modelId = 'fake-vision-1'): FakeVisionModel {
  const model: FakeVisionModel = {
    provider: 'fake',
    modelId,
    calls: [],
    rules: [],
    async ask(question) {
      const call = {
        name: question.name,
        system: question.instructions,
        prompt: question.prompt,
        images: question.images,
      };
      model.calls.push(call);
      const rule = takeRule(model.rules, call);
      switch (rule?.mode ?? 'ok') {
        case 'fail':
          throw new VisionUnavailable('provider_error', 'The vision model failed (HTTP 500: model crashed)');
        case 'throttle':
          throw new VisionUnavailable('throttled', 'The vision model is rate-limiting us');
        case 'refuse':
          throw new VisionUnavailable('refused', 'The vision model refused to answer: I cannot help with that');
        case 'invalid_json':
          throw new InvalidAnswer('The vision model did not answer with JSON');
        case 'schema_invalid':
          return { unexpected: true };
        case 'slow':
          await delay(rule?.delayMs ?? 5000, question.signal);
      }
      return rule?.answer ?? exampleOf(question.schema as JsonSchema, languageOf(question.prompt));
    },
  };
  return model;
}

/** Waits, or gives up as the real adapters do when the caller's deadline passes first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timeout = () => reject(new VisionUnavailable('timeout', 'The vision model did not answer in time'));
    if (signal.aborted) return timeout();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        timeout();
      },
      { once: true },
    );
  });
}

/** The answer language a prompt asks for (kinds.ts writes it as `language code xx`). */
export const languageOf = (prompt: string) => /language code ([a-z-]+)/.exec(prompt)?.[1] ?? 'en';

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxLength?: number;
}

/** The fields where a model explains its answer: the fake says there how it reached the answer's other values. */
const REASONING_FIELDS = new Set(['explanation', 'reasons']);

const resolved = (schema: JsonSchema) =>
  schema.anyOf ? (schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!) : schema;

const boundsOf = (schema: JsonSchema) => {
  const low = schema.minimum ?? schema.exclusiveMinimum ?? 0;
  return { low, high: schema.maximum ?? schema.exclusiveMaximum ?? low + 10 };
};

/**
 * A value that follows the schema: midpoints of numeric bounds, first enum values, the fewest array items, short text
 * in the language; a reasoning field says how the object's other values were reached.
 */
export function exampleOf(schema: JsonSchema, lang: string): unknown {
  if (schema.anyOf) return exampleOf(resolved(schema), lang);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const fields = Object.entries(schema.properties ?? {});
      const value = Object.fromEntries(fields.map(([k, s]) => [k, REASONING_FIELDS.has(k) ? '' : exampleOf(s, lang)]));
      const reasoning = `Deterministic test model, no photo judged: ${derivation(schema, value).join('; ')} (answer language asked: ${lang}).`;
      for (const [k, s] of fields) if (REASONING_FIELDS.has(k)) value[k] = reasoning.slice(0, s.maxLength);
      return value;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items ?? {}, lang));
    case 'integer':
    case 'number': {
      const { low, high } = boundsOf(schema);
      const mid = (low + high) / 2;
      return schema.type === 'integer' ? Math.round(mid) : Math.round(mid * 100) / 100;
    }
    case 'boolean':
      return false;
    case 'string':
      return `Generated text [${lang}]`.slice(0, schema.maxLength ?? 100);
    default:
      return null;
  }
}

/** How each non-text value of an example answer follows from its schema, e.g. `score 5, the middle of 1–9`. */
function derivation(schema: JsonSchema, value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => {
    const field = resolved(child);
    const name = `${prefix}${key}`;
    const got = value[key];
    if (field.enum) return [`${name} ${String(got)}, the first of ${field.enum.length} choices`];
    if (field.type === 'integer' || field.type === 'number') {
      const { low, high } = boundsOf(field);
      return [`${name} ${String(got)}, the middle of ${low}–${high}`];
    }
    if (field.type === 'boolean') return [`${name} ${String(got)}, the default`];
    if (field.type === 'array') {
      const count = (got as unknown[]).length;
      return [`${name} ${count} ${count === 1 ? 'item' : 'items'}, the fewest allowed`];
    }
    if (field.type === 'object') return derivation(field, got as Record<string, unknown>, `${name}.`);
    return [];
  });
}
