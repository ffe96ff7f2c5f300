import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The dispatcher's stored copies of events (WHEVENT items, 30-day TTL) are all gone by this date; after it, the read
// that redelivers attempts logged before attempts carried their event is dead code (docs/decisions.md).
const REMOVE_AFTER = Date.parse('2026-12-25T00:00:00Z');
const LEFTOVERS = ['findStoredEvent', 'WHEVENT'];
const ROOT = resolve(import.meta.dirname, '..', '..', '..');

function sourcesMentioning(word: string): string[] {
  return ['functions', 'shared', 'events', 'infra'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => readFileSync(file, 'utf8').includes(word))
      .map((file) => relative(ROOT, file)),
  );
}

describe('removal of the stored-event fallback', () => {
  it.runIf(Date.now() > REMOVE_AFTER)('is done once every stored event has expired', () => {
    const left = LEFTOVERS.flatMap((word) => sourcesMentioning(word).map((file) => `${word} in ${file}`));
    expect(
      left,
      'WHEVENT items expired on 2026-12-25: remove findStoredEvent (shared/domain/webhooks/stored-events.ts and its ' +
        'caller in operator-actions.ts), the WHEVENT key builder in shared/db/keys.ts, their docs rows, and this test',
    ).toEqual([]);
  });
});
