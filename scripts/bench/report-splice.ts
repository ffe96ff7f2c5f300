// Puts one part's fresh summary rows and section into docs/benchmarks.md, leaving every other figure as it was.

/** Where the `## ` section starting at `start` ends. */
export const nextSection = (doc: string, start: number) => {
  const next = doc.indexOf('\n## ', start + 1);
  return next < 0 ? doc.length : next + 1;
};

/** Replaces the section headed `title` (up to the next `## `) with `section`; appends it when the doc has none. */
export function spliceSection(doc: string, title: string, section: string): string {
  const start = doc.indexOf(`${title}\n`);
  if (start < 0) return `${doc.trimEnd()}\n\n${section}`;
  const end = nextSection(doc, start);
  return `${doc.slice(0, start)}${section}${end < doc.length ? '\n' : ''}${doc.slice(end)}`;
}

const SUMMARY_TITLE = '## Summary';
const labelOf = (row: string) => row.split('|')[1]?.trim() ?? '';

/**
 * Replaces the summary rows a part owns (by their first cell) with `rows`, where the first of them stood; after the
 * table's header when it had none.
 */
export function spliceSummaryRows(doc: string, owns: (label: string) => boolean, rows: string[]): string {
  const start = doc.indexOf(`${SUMMARY_TITLE}\n`);
  if (start < 0) throw new Error('docs/benchmarks.md has no summary table');
  const end = nextSection(doc, start);
  const lines = doc.slice(start, end).split('\n');
  const header = lines.findIndex((line) => line.startsWith('|---'));
  const owned = lines.map((line, i) => i > header && line.startsWith('| ') && owns(labelOf(line)));
  const at = owned.includes(true) ? owned.indexOf(true) : header + 1;
  const kept = lines.filter((_, i) => !owned[i]);
  kept.splice(at, 0, ...rows);
  return `${doc.slice(0, start)}${kept.join('\n')}${doc.slice(end)}`;
}

/** The day a section's figures were measured: its own "Measured on" line, else the day the whole report was written. */
export const measuredOn = (doc: string, section: string) =>
  /Measured on (\d{4}-\d{2}-\d{2})/.exec(section)?.[1] ??
  /Written by `npm run bench` on (\d{4}-\d{2}-\d{2})/.exec(doc)?.[1] ??
  'an unknown day';
