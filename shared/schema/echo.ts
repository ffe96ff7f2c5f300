// Input quoted back to the caller in an error (a field name, a path, a file name) is cut here, so no error body grows
// with the size of the request. shared/http/responses.ts applies it to every error body; messages use it where they
// quote input.

/** Names, paths and values quoted back in an error are cut to this many characters. */
export const MAX_ECHOED_CHARS = 200;

/** `value` cut to `max` UTF-16 units (never inside a surrogate pair) with `…` appended when cut. */
export function echo(value: string, max = MAX_ECHOED_CHARS): string {
  if (value.length <= max) return value;
  const end = /[\ud800-\udbff]/.test(value[max - 1]!) ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}
