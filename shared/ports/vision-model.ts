// The vision-model port: one question about a pet's photos, answered as JSON that follows a given JSON Schema.
// Adapters (shared/adapters/vision-model/): Amazon Bedrock deployed (aws.ts), any OpenAI-compatible server such as
// Ollama under npm start (local.ts), nobody when none is configured (none.ts), and fake.ts answering tests
// in-process; index.ts picks one from the configuration.

/** `fake`: the deterministic test double of shared/adapters/vision-model/fake.ts (never chosen by configuration). */
export type VisionProvider = 'bedrock' | 'openai' | 'none' | 'fake';

/** A photo ready for a model: JPEG, at most 1024 px on its longer side, no metadata (shared/media/model-image.ts). */
export interface ModelImage {
  bytes: Uint8Array;
  mediaType: 'image/jpeg';
}

export interface VisionQuestion {
  /** Names the answer (the tool name for Bedrock, `json_schema.name` for OpenAI-compatible servers). */
  name: string;
  /** What the model is and how it answers (the system prompt). */
  instructions: string;
  /** The question, with the pet's facts. */
  prompt: string;
  images: ModelImage[];
  /** JSON Schema (derived from the zod schema that later validates the answer). */
  schema: Record<string, unknown>;
  /** Stop waiting at this signal (the caller's overall deadline). */
  signal: AbortSignal;
}

export interface VisionModel {
  readonly provider: VisionProvider;
  /** The model id answers are attributed to; null when no model is configured. */
  readonly modelId: string | null;
  /** Set when no model can be asked at all (none configured, or settings missing): why, without asking. */
  readonly unavailable?: VisionUnavailable;
  /**
   * The model's answer, parsed from JSON but not yet validated. Throws `VisionUnavailable` for every failure of
   * the provider, and `InvalidAnswer` when the answer is not JSON at all.
   */
  ask(question: VisionQuestion): Promise<unknown>;
}

export type UnavailableReason =
  | 'not_configured'
  | 'timeout'
  | 'throttled'
  | 'provider_error'
  | 'unreachable'
  | 'refused'
  | 'invalid_answer';

/** The provider could not answer; the caller answers 503 and caches nothing. */
export class VisionUnavailable extends Error {
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'VisionUnavailable';
  }
}

/** The provider answered, but not with JSON: worth one more try. */
export class InvalidAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAnswer';
  }
}
