import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every message the service queues goes through one helper (shared/aws/sqs.ts), which writes values as ASCII JSON: a
// send past it could carry a character a queue refuses, and the event would be lost (issue 32).
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const HELPER = 'shared/aws/sqs.ts';
const SENDS = /\b(SendMessageCommand|SendMessageBatchCommand|MessageBody)\b/;

const sourceFiles = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));

describe('queue sends', () => {
  it('only the sending helper builds SQS messages: nothing in shared/, events/, functions/ or scripts/ sends past it', () => {
    const files = ['shared', 'events', 'functions', 'scripts'].flatMap(sourceFiles);
    expect(files).toContain(HELPER);
    const offending = files.filter((file) => file !== HELPER && SENDS.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offending).toEqual([]);
  });
});
