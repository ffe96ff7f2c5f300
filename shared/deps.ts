import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { monotonicFactory } from 'ulid';
import { loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './log.ts';
import { traced } from './observability.ts';
import type { VisionModel } from './ports/vision-model.ts';

/** Everything a handler or domain function needs from the outside world, created once per container. */
export interface Deps {
  config: Config;
  ddb: DynamoDBDocumentClient;
  log: Logger;
  now: () => Date;
  /** Waits `ms` milliseconds (the clock's other half: tests that fake `now` advance it here). */
  sleep: (ms: number) => Promise<void>;
  /** Sortable unique id (ULID). */
  newId: () => string;
  randomBytes: (size: number) => Buffer;
  /** Uniform in [0, 1): random picks and random ordering. */
  random: () => number;
  /**
   * A vision model a test injects (shared/adapters/vision-model/fake.ts); otherwise the analysis routes compose the one
   * their configuration names (analysisDeps), so only they load a provider's SDK.
   */
  vision?: VisionModel;
}

let cached: Deps | undefined;

export function getDeps(): Deps {
  cached ??= createDeps();
  return cached;
}

/** Forgets the dependencies, so the next getDeps() reads the environment again (local mode restarting its emulators). */
export function resetDeps(): void {
  cached = undefined;
}

/** Tests replace selected dependencies (clock, ids) without touching the rest. */
export function setDepsForTest(overrides: Partial<Deps> | undefined): void {
  cached = overrides ? { ...createDeps(), ...overrides } : undefined;
}

function createDeps(): Deps {
  const config = loadConfig();
  const ulid = monotonicFactory();
  return {
    config,
    ddb: DynamoDBDocumentClient.from(traced(new DynamoDBClient({})), {
      marshallOptions: { removeUndefinedValues: true },
    }),
    log: createLogger(),
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId: () => ulid(),
    randomBytes: (size) => randomBytes(size),
    random: Math.random,
  };
}
