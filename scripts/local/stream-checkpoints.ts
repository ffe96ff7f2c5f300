// Where a local stream consumer stopped, kept with the persisted data (LOCAL_PERSIST=1): per shard of the table's
// stream, the sequence number of the last record it processed, or that the shard was read to its end. Lambda's event
// source mapping keeps the same position on AWS's side; with it the stream runner resumes after a restart, even after
// a crash, where it stopped instead of at the stream's newest record.
import { readFile, rename, writeFile } from 'node:fs/promises';
import * as z from 'zod/mini';

/** The position of a shard read to its end (closed, every record processed). */
export const SHARD_FINISHED = 'finished';

const checkpointSchema = z.object({
  streamArn: z.string(),
  shards: z.record(z.string(), z.string()),
});
export type StreamCheckpoint = z.infer<typeof checkpointSchema>;

/** Shard id → position, for `streamArn`; empty when nothing was saved yet or what was saved is another stream's. */
export async function readCheckpoint(file: string, streamArn: string): Promise<Map<string, string>> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return new Map();
  const parsed = z.safeParse(checkpointSchema, safeJson(text));
  if (!parsed.success)
    throw new Error(`${file} is not a stream checkpoint; delete it to read the stream again from its oldest record`);
  return parsed.data.streamArn === streamArn ? new Map(Object.entries(parsed.data.shards)) : new Map();
}

/**
 * Replaces the checkpoint in one step: written beside it, then renamed over it, so a crash leaves the old checkpoint
 * or the new one, never half of one. Not flushed to disk: a crashed process's writes stay in the page cache.
 */
export async function writeCheckpoint(file: string, checkpoint: StreamCheckpoint): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(checkpoint));
  await rename(temporary, file);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
