// Steers the fake vision server the local stack talks to (tests/support/fake-vision-server.ts) over HTTP.
import { inject } from 'vitest';
import type { FakeRule, RecordedCall } from '../../scripts/local/fake-vision-server.ts';

/** Adds rules; each test matches on its own pet's unique name, so test files running in parallel do not collide. */
export async function visionRules(...rules: FakeRule[]): Promise<void> {
  const res = await fetch(`${inject('visionUrl')}/__control/rules`, { method: 'POST', body: JSON.stringify(rules) });
  if (!res.ok) throw new Error(`fake vision server: ${res.status}`);
}

/** The calls whose prompt contains `match` (prompts name the pet). */
export async function visionCalls(match: string): Promise<(Omit<RecordedCall, 'images'> & { images: number })[]> {
  const res = await fetch(`${inject('visionUrl')}/__calls?match=${encodeURIComponent(match)}`);
  return ((await res.json()) as { calls: never[] }).calls;
}
