// A stream consumer's Lambda filter patterns, read by the CDK app (the event source's filter criteria) and by the local
// stream runner, which applies them as Lambda does: a record that no pattern matches never reaches the handler.
import { EVENT_SOURCE_PATTERNS } from './catalogue.ts';
import type { StreamSource } from './consumer-def.ts';

type Pattern = Readonly<Record<string, unknown>>;

/** The consumer's own patterns or, by default, the items that can become events (by their new image). */
export const streamFilterPatterns = (source: StreamSource): readonly Pattern[] =>
  source.patterns ?? EVENT_SOURCE_PATTERNS.map((image) => ({ dynamodb: { NewImage: image } }));

/**
 * Whether a record, as Lambda delivers it, matches any of the patterns. The subset of Lambda's filter syntax that the
 * consumer table uses is supported: nested objects and, at the leaves, lists of exact values. Any other rule (prefix,
 * numeric, exists, anything-but) is refused here, when the filter is made, so that no pattern is silently ignored.
 */
export function recordFilter(patterns: readonly Pattern[]): (record: unknown) => boolean {
  for (const pattern of patterns) assertSupported(pattern, '');
  return (record) => patterns.some((pattern) => matches(record, pattern));
}

function assertSupported(pattern: Pattern, path: string): void {
  for (const [key, rule] of Object.entries(pattern)) {
    const at = `${path}${key}`;
    if (Array.isArray(rule)) {
      const operator = rule.find((allowed) => allowed !== null && typeof allowed === 'object');
      if (operator !== undefined)
        throw new Error(`filter rule ${JSON.stringify(operator)} at ${at} is not supported by the local stream runner`);
    } else if (rule !== null && typeof rule === 'object') assertSupported(rule as Pattern, `${at}.`);
    else throw new Error(`filter pattern at ${at} must be a list of values or an object`);
  }
}

function matches(value: unknown, pattern: Pattern): boolean {
  return Object.entries(pattern).every(([key, rule]) => {
    const field = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    return Array.isArray(rule) ? rule.includes(field) : matches(field, rule as Pattern);
  });
}
