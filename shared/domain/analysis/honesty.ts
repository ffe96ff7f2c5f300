// What every analysis result says about itself (issue 29): that it is not a diagnosis, in the requested language, and
// what its method was checked against, in one sentence that links to where the checks are described.
import type { Language } from '../reference/i18n.ts';
import type { AnalysisKind } from './kinds.ts';

const DISCLAIMERS: Record<Language, string> = {
  en: "An estimate from photos, not a veterinary diagnosis: see a vet about your pet's health.",
  'en-gb': "An estimate from photos, not a veterinary diagnosis: see a vet about your pet's health.",
  de: 'Eine Schätzung anhand von Fotos, keine tierärztliche Diagnose: Fragen zur Gesundheit Ihres Tieres klärt die Tierarztpraxis.',
  es: 'Una estimación a partir de fotos, no un diagnóstico veterinario: consulte a un veterinario sobre la salud de su mascota.',
  fr: 'Une estimation à partir de photos, pas un diagnostic vétérinaire : consultez un vétérinaire pour la santé de votre animal.',
  pl: 'Szacunek na podstawie zdjęć, a nie diagnoza weterynaryjna: w sprawie zdrowia zwierzęcia skonsultuj się z lekarzem weterynarii.',
  uk: "Оцінка за фотографіями, а не ветеринарний діагноз: щодо здоров'я вашої тварини зверніться до ветеринара.",
};

const VALIDATION_LINK = 'docs/analysis.md#validation';

/** Honest about each kind: the model's answers are held to a schema and the computed parts are tested, no more. */
const VALIDATION: Record<Exclude<AnalysisKind, 'health_tips'>, string> = {
  body_condition_score:
    "The model's score is held to the WSAVA 1–9 schema and the category computed from it is unit-tested; it has not been compared with vets' hands-on scores",
  estimated_age:
    "The model's age is held to a schema and the life stage computed from it follows the AAHA/AAFP ages in unit tests; it has not been compared with known ages",
  genealogy:
    "Breed names are matched to the catalogue and the shares computed by tested rules; the model's breed mix has not been compared with DNA tests",
  muscle_condition_score:
    "The model's grade is held to the WSAVA muscle condition schema; it has not been compared with vets' hands-on grades",
  estimated_weight:
    "The formula combining the model's estimate with the breed standard is unit- and integration-tested; the result has not been compared with weighed pets",
};

export function honesty(kind: Exclude<AnalysisKind, 'health_tips'>, lang: Language) {
  return { disclaimer: DISCLAIMERS[lang], validation: `${VALIDATION[kind]}: ${VALIDATION_LINK}` };
}
