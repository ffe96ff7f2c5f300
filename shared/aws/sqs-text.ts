// What SQS can carry. A message body may hold only #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF;
// anything else makes SQS refuse the whole message. Local emulators are stricter still about astral characters.

/**
 * JSON with every character outside printable ASCII written as a `\uXXXX` escape: the same JSON value for any
 * reader, and a body every queue accepts whatever the strings inside hold (emoji, U+FFFF, lone surrogates).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
