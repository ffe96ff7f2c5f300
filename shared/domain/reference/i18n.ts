import * as z from 'zod/mini';
import { onTheWire, text, WORD_MAX_LENGTH } from '../../schema/params.ts';

/** Languages the reference content is served in; content missing a translation falls back to English. */
export const SUPPORTED_LANGUAGES = ['en', 'en-gb', 'de', 'es', 'fr', 'pl', 'uk'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** `lang`: a two-letter code, or `en-gb`; anything else is a 400 naming the supported codes. */
export const langParam = onTheWire(
  z.pipe(
    text(
      { max: WORD_MAX_LENGTH },
      z.refine((v) => /^[a-z]{2}(-[a-z]{2})?$/i.test(v), 'must be a two-letter language code (or en-gb)'),
      z.refine(
        (v) => (SUPPORTED_LANGUAGES as readonly string[]).includes(v.toLowerCase()),
        `is not supported; use one of: ${SUPPORTED_LANGUAGES.join(', ')}`,
      ),
    ),
    z.transform((v: string) => v.toLowerCase() as Language),
  ),
  {
    type: 'string',
    enum: [...SUPPORTED_LANGUAGES],
    description: 'Language of translated fields, any case; missing translations fall back to English.',
  },
);

export type Translations<T> = Partial<Record<string, Partial<T>>>;

/**
 * Picks translated fields per record and remembers which languages the response really used, so the
 * `Content-Language` header can say when some records fell back to English.
 */
export class Translator {
  private readonly used = new Set<string>();

  constructor(readonly language: Language = 'en') {}

  /** The record's fields in the requested language, English where a field has no translation. */
  apply<T extends object>(base: T, i18n: Translations<T> | undefined): T {
    if (this.language === 'en') {
      this.used.add('en');
      return base;
    }
    const translated = i18n?.[this.language];
    // British English only lists what differs from the base (US) text, so a missing entry is no fallback.
    if (this.language === 'en-gb') {
      this.used.add('en-gb');
      return translated ? { ...base, ...defined(translated) } : base;
    }
    const fields = translated ? defined(translated) : {};
    const complete = Object.keys(fields).length > 0;
    this.used.add(complete ? this.language : 'en');
    return { ...base, ...fields };
  }

  /** Translates a single term through a dictionary (group names, temperament words). */
  term(word: string, dictionary: Record<string, Partial<Record<string, string>>> | undefined): string {
    if (this.language === 'en' || this.language === 'en-gb') return word;
    const translated = dictionary?.[word]?.[this.language];
    this.used.add(translated ? this.language : 'en');
    return translated ?? word;
  }

  get contentLanguage(): string {
    return this.used.size === 0
      ? this.language
      : [...this.used]
          .sort((a, b) => (a === this.language ? -1 : b === this.language ? 1 : a.localeCompare(b)))
          .join(', ');
  }
}

function defined<T extends object>(fields: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}
