// How a failed attempt is named in a disable reason and in the operational events: kept apart from the transport so
// that the event router, which names failures from the attempt log, does not load the HTTP client.

/** The attempt's error, or its HTTP status when the status alone says what failed. */
export const describeFailure = (result: { error: string | null; statusCode: number | null }) =>
  result.error ?? `HTTP ${result.statusCode}`;
