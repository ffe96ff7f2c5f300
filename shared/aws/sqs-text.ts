// What SQS can carry. A message body may hold only #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF;
// anything else makes SQS refuse the whole message. Local emulators are stricter still about astral characters.
// Without the SDK, so that the consumer wrapper can recognise a refusal without bundling it.

/** Every character outside printable ASCII as a `\uXXXX` escape (a surrogate pair as two). */
export function asciiText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON with every character outside printable ASCII escaped: the same JSON value for any reader, and a body every
 * queue accepts whatever the strings inside hold (emoji, U+FFFF, lone surrogates, controls).
 */
export function asciiJson(value: unknown): string {
  return asciiText(JSON.stringify(value));
}

/**
 * SQS refused a message as the sender's fault (its contents, its size): sending it again can never succeed, so the
 * message it came from belongs in a dead-letter queue now, not after its retries.
 */
export class QueueRefusal extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`the queue refused the message: ${code}: ${detail}`);
    this.name = 'QueueRefusal';
  }
}
