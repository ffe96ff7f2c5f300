import * as z from 'zod/mini';

// The one place that reads process.env: parsed once, typed everywhere else.

/** The stage of this machine: `npm start`, the CLIs against the local stack, the handler tests. Any other is deployed. */
export const LOCAL_STAGE = 'local';

/**
 * Settings for the local stage only, refused in any other: each swaps a deployed safeguard or service for a local
 * stand-in. Loopback webhook receivers; signing and encryption keys in the environment instead of Secrets Manager and
 * KMS; owner e-mails to a folder instead of SES; the emulators' endpoints; readable log lines, which the alarms' metric
 * filters cannot read; metrics off. (The logger, Powertools and the SDK read the last five themselves.)
 */
export const LOCAL_ONLY_SETTINGS = [
  'ALLOW_LOOPBACK_WEBHOOKS',
  'TOKEN_SECRET',
  'WEBHOOK_SECRET_KEY',
  'OWNER_MAIL_OUTBOX_DIR',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_S3',
  'AWS_ENDPOINT_URL_SQS',
  'LOG_FORMAT',
  'POWERTOOLS_METRICS_DISABLED',
] as const;

const envSchema = z.object({
  STAGE: z._default(z.string(), LOCAL_STAGE),
  TABLE_NAME: z.string().check(z.minLength(1)),
  /** Idempotency records and rate-limit windows (set for the routes the pipeline guards, docs/ARCHITECTURE.md). */
  REQUESTS_TABLE_NAME: z.optional(z.string().check(z.minLength(1))),
  /** Local mode only: the bearer-token signing secret itself. */
  TOKEN_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** Deployed: the Secrets Manager secret that holds the bearer-token signing key. */
  TOKEN_SECRET_ARN: z.optional(z.string()),
  /** Deployed behind the firewall (-c waf=true): the secret CloudFront sends as `x-origin-verify` (shared/http/origin-check.ts). */
  ORIGIN_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  /** How long a resolved API key or token stays cached in a warm function (seconds). */
  AUTH_CACHE_TTL_SECONDS: z._default(z.pipe(z.string(), z.transform(Number)), 30),
  /** Seconds a bearer token stays valid. */
  TOKEN_TTL_SECONDS: z._default(z.pipe(z.string(), z.transform(Number)), 3600),
  /** Where media objects are served from: the CDN deployed, the local S3 bucket in local mode. */
  MEDIA_BASE_URL: z._default(z.string(), 'http://127.0.0.1:4566/pet-api-media'),
  /** The media bucket (catalogue images and uploads). */
  MEDIA_BUCKET: z._default(z.string(), 'pet-api-media'),
  /** Who labels uploaded images: Amazon Rekognition deployed; locally no model yet (labels stay empty, and say so). */
  LABELS_PROVIDER: z._default(z.enum(['rekognition', 'none']), 'none'),
  /** Local mode: fauxqs' S3 endpoint (path-style addressing). */
  AWS_ENDPOINT_URL_S3: z.optional(z.string()),
  /** The queue the event router publishes domain events to. */
  EVENTS_QUEUE_URL: z.optional(z.string()),
  /** Where the event router parks records it can never publish (alarmed; docs/operations.md). */
  STREAM_DLQ_URL: z.optional(z.string()),
  /** A queue consumer that sends: its own queue's DLQ, where it parks a message whose sends SQS refused for good. */
  DEAD_LETTER_QUEUE_URL: z.optional(z.string()),
  /** Local mode: fauxqs' endpoint, passed to the SQS client explicitly (queue URLs name a host that does not resolve). */
  AWS_ENDPOINT_URL_SQS: z.optional(z.string()),
  WEBHOOK_DELIVERIES_QUEUE_URL: z.optional(z.string()),
  ALLOW_LOOPBACK_WEBHOOKS: z._default(
    z.pipe(
      z.string(),
      z.transform((v) => v === 'true'),
    ),
    false,
  ),
  WEBHOOK_KMS_KEY_ID: z.optional(z.string()),
  WEBHOOK_SECRET_KEY: z.optional(z.string()),
  OWNER_MAIL_FROM: z._default(z.string(), 'Pet API <no-reply@pet-api.local>'),
  OWNER_MAIL_OUTBOX_DIR: z.optional(z.string()),
  /** Which vision model answers photo analyses (docs/analysis.md); `none` answers 503 and says how to enable one. */
  ANALYSIS_PROVIDER: z._default(z.enum(['bedrock', 'openai', 'none']), 'none'),
  /** `openai`: the OpenAI-compatible server's base URL, up to and without `/chat/completions`. */
  // Checked with URL itself, not z.url(): zod's URL check would add 2.2 KB to every function's bundle for one setting.
  ANALYSIS_BASE_URL: z.optional(z.string().check(z.refine(isHttpUrl))),
  /** The model id: a Bedrock model or inference-profile id, or the OpenAI-compatible server's model name. */
  ANALYSIS_MODEL: z.optional(z.string().check(z.minLength(1))),
  /** `openai`: sent as `Authorization: Bearer …` when set. */
  ANALYSIS_API_KEY: z.optional(z.string()),
  /** Budget of one analysis across attempts (ms); under API Gateway's 30 s. */
  ANALYSIS_TIMEOUT_MS: z._default(
    z.pipe(z.pipe(z.string(), z.transform(Number)), z.int().check(z.gte(100), z.lte(28_000))),
    25_000,
  ),
  /** How long an analysis result stays cached (seconds; its record stays until the pet goes). Tests shorten it. */
  ANALYSIS_RESULT_TTL_SECONDS: z._default(
    z.pipe(z.pipe(z.string(), z.transform(Number)), z.int().check(z.gte(1), z.lte(365 * 24 * 3600))),
    30 * 24 * 3600,
  ),
  /** How long a signed pet media URL stays valid (seconds). */
  PET_MEDIA_URL_SECONDS: z._default(z.pipe(z.string(), z.transform(Number)), 900),
  /** The queue portrait requests go to. */
  PORTRAITS_QUEUE_URL: z.optional(z.string()),
  /** Deployed: the Bedrock image model that paints portraits; unset, portraits are stylised locally with sharp. */
  PORTRAIT_MODEL_ID: z.optional(z.string()),
  /** Where the ffmpeg and ffprobe binaries are: a Lambda layer deployed, the npm packages' binaries locally. */
  FFMPEG_PATH: z.optional(z.string()),
  FFPROBE_PATH: z.optional(z.string()),
  /** Set by Lambda; authenticates calls to the Parameters and Secrets extension. */
  AWS_SESSION_TOKEN: z.optional(z.string()),
});

export type Config = {
  stage: string;
  tableName: string;
  requestsTableName: string | undefined;
  tokenSecret: string | undefined;
  tokenSecretArn: string | undefined;
  originSecretArn: string | undefined;
  authCacheTtlSeconds: number;
  tokenTtlSeconds: number;
  awsSessionToken: string | undefined;
  mediaBaseUrl: string;
  eventsQueueUrl: string | undefined;
  streamDeadLetterQueueUrl: string | undefined;
  deadLetterQueueUrl: string | undefined;
  mediaBucket: string;
  labelsProvider: 'rekognition' | 'none';
  s3Endpoint: string | undefined;
  sqsEndpoint: string | undefined;
  webhookDeliveriesQueueUrl: string | undefined;
  allowLoopbackWebhooks: boolean;
  webhookKmsKeyId: string | undefined;
  webhookSecretKey: string | undefined;
  ownerMailFrom: string;
  ownerMailOutboxDir: string | undefined;
  analysis: AnalysisConfig;
  analysisResultTtlSeconds: number;
  petMediaUrlSeconds: number;
  portraitsQueueUrl: string | undefined;
  portraitModelId: string | undefined;
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
};

export type AnalysisConfig = {
  provider: 'bedrock' | 'openai' | 'none';
  baseUrl: string | undefined;
  model: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
};

/** An absolute http(s) URL (`localhost:11434` parses too, as a URL of scheme `localhost:`). */
function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** A deployed function must never start with a local stand-in switched on, whatever its environment says. */
function refuseLocalOnlySettings(stage: string, env: Record<string, string | undefined>): void {
  if (stage === LOCAL_STAGE) return;
  const set = LOCAL_ONLY_SETTINGS.filter((name) => env[name] !== undefined);
  if (set.length > 0)
    throw new Error(
      `invalid environment: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} for the ${LOCAL_STAGE} stage only ` +
        `(STAGE=${stage}); remove ${set.length === 1 ? 'it' : 'them'} from the environment`,
    );
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = z.safeParse(envSchema, env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`).join(', ');
    throw new Error(`invalid environment: ${problems}`);
  }
  const e = parsed.data;
  refuseLocalOnlySettings(e.STAGE, env);
  return {
    stage: e.STAGE,
    tableName: e.TABLE_NAME,
    requestsTableName: e.REQUESTS_TABLE_NAME,
    tokenSecret: e.TOKEN_SECRET,
    tokenSecretArn: e.TOKEN_SECRET_ARN,
    originSecretArn: e.ORIGIN_SECRET_ARN,
    authCacheTtlSeconds: e.AUTH_CACHE_TTL_SECONDS,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    awsSessionToken: e.AWS_SESSION_TOKEN,
    mediaBaseUrl: e.MEDIA_BASE_URL.replace(/\/+$/, ''),
    eventsQueueUrl: e.EVENTS_QUEUE_URL,
    streamDeadLetterQueueUrl: e.STREAM_DLQ_URL,
    deadLetterQueueUrl: e.DEAD_LETTER_QUEUE_URL,
    mediaBucket: e.MEDIA_BUCKET,
    labelsProvider: e.LABELS_PROVIDER,
    s3Endpoint: e.AWS_ENDPOINT_URL_S3,
    sqsEndpoint: e.AWS_ENDPOINT_URL_SQS,
    webhookDeliveriesQueueUrl: e.WEBHOOK_DELIVERIES_QUEUE_URL,
    allowLoopbackWebhooks: e.ALLOW_LOOPBACK_WEBHOOKS,
    webhookKmsKeyId: e.WEBHOOK_KMS_KEY_ID,
    webhookSecretKey: e.WEBHOOK_SECRET_KEY,
    ownerMailFrom: e.OWNER_MAIL_FROM,
    ownerMailOutboxDir: e.OWNER_MAIL_OUTBOX_DIR,
    analysis: {
      provider: e.ANALYSIS_PROVIDER,
      baseUrl: e.ANALYSIS_BASE_URL?.replace(/\/+$/, ''),
      model: e.ANALYSIS_MODEL,
      apiKey: e.ANALYSIS_API_KEY || undefined,
      timeoutMs: e.ANALYSIS_TIMEOUT_MS,
    },
    analysisResultTtlSeconds: e.ANALYSIS_RESULT_TTL_SECONDS,
    petMediaUrlSeconds: e.PET_MEDIA_URL_SECONDS,
    portraitsQueueUrl: e.PORTRAITS_QUEUE_URL,
    portraitModelId: e.PORTRAIT_MODEL_ID,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
  };
}
