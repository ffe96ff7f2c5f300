import * as z from 'zod/mini';
import { onTheWire, text, WORD_MAX_LENGTH } from '../../schema/params.ts';

export const SPECIES = ['dog', 'cat'] as const;
export type Species = (typeof SPECIES)[number];

/** The real service's example scripts send "1" for dogs and "2" for cats; both spellings are accepted. */
const ALIASES: Record<string, Species> = { dog: 'dog', dogs: 'dog', '1': 'dog', cat: 'cat', cats: 'cat', '2': 'cat' };

export const speciesParam = onTheWire(
  z.pipe(
    text(
      { max: WORD_MAX_LENGTH },
      z.refine((v) => v.toLowerCase() in ALIASES, 'must be dog or cat (or 1 for dogs, 2 for cats)'),
    ),
    z.transform((v: string) => ALIASES[v.toLowerCase()]!),
  ),
  {
    type: 'string',
    enum: Object.keys(ALIASES),
    description: '`dog` or `cat` (also `dogs`, `cats`, `1`, `2`), any case.',
  },
);

export const resolveSpecies = (value: string): Species | undefined => ALIASES[value.toLowerCase()];
