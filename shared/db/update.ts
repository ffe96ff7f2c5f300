/**
 * `SET` of the given fields (undefined values left out) as UpdateCommand parts, with every name behind a placeholder
 * so reserved words (`status`, `name`) need no thought. Placeholders are `#f0…`/`:v0…`; conditions add their own.
 */
export function setFields(fields: Record<string, unknown>) {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0) throw new Error('setFields needs at least one defined field');
  return {
    UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])) as Record<
      string,
      unknown
    >,
  };
}
