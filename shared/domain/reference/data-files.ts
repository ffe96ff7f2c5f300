/** The committed data files the reference sets are built from (relative to the repository root). */
export const REFERENCE_DATA_FILES = [
  'data/breeds.json',
  'data/breed-images.json',
  'data/categories.json',
  'data/colours.json',
  'data/facts.json',
  'data/health-tips.json',
  'data/legislation.json',
  'data/authored/temperament-i18n.json',
] as const;
