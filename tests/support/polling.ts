// Waiting on the asynchronous half of the local stack: the smoke test's helper (scripts/polling.ts), one for both.
export { until } from '../../scripts/polling.ts';
