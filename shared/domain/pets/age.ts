// A pet's age from its birth date, which owners give as precisely as they know it (`YYYY-MM` or `YYYY-MM-DD`).

/** Whole months since the birth month, or null when no birth date is on record. */
export function petAgeInMonths(birthDate: string | null, now: Date): number | null {
  if (!birthDate) return null;
  const [year, month] = birthDate.split('-').map(Number);
  if (!year || !month) return null;
  return Math.max(0, (now.getUTCFullYear() - year) * 12 + (now.getUTCMonth() + 1 - month));
}
