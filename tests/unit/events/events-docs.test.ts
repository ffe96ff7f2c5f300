import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../../shared/events/catalogue.ts';

const events = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'events.md'), 'utf8');

describe('docs/events.md', () => {
  it('documents every event of the catalogue with a section and an example delivery carrying its name', () => {
    for (const name of EVENT_NAMES) {
      expect(events, name).toContain(`### \`${name}\``);
      const section = events.split(`### \`${name}\``)[1]!.split('\n### ')[0]!;
      expect(section, name).toContain(`"event_type": "${name}"`);
    }
  });
});
