// What every completed respiratory-rate measurement says about itself, as analysis results do
// (shared/domain/analysis/honesty.ts): that it is not a diagnosis, in the requested language, and what the
// measurement was checked against, in one sentence that links to where the checks are described.
import type { Language } from '../reference/i18n.ts';

const DISCLAIMERS: Record<Language, string> = {
  en: "A breathing rate measured from a video, not a veterinary diagnosis: see a vet about your pet's health.",
  'en-gb': "A breathing rate measured from a video, not a veterinary diagnosis: see a vet about your pet's health.",
  de: 'Eine aus einem Video gemessene Atemfrequenz, keine tierärztliche Diagnose: Fragen zur Gesundheit Ihres Tieres klärt die Tierarztpraxis.',
  es: 'Una frecuencia respiratoria medida en un vídeo, no un diagnóstico veterinario: consulte a un veterinario sobre la salud de su mascota.',
  fr: 'Une fréquence respiratoire mesurée sur une vidéo, pas un diagnostic vétérinaire : consultez un vétérinaire pour la santé de votre animal.',
  pl: 'Częstość oddechów zmierzona na filmie, a nie diagnoza weterynaryjna: w sprawie zdrowia zwierzęcia skonsultuj się z lekarzem weterynarii.',
  uk: "Частота дихання, виміряна за відео, а не ветеринарний діагноз: щодо здоров'я вашої тварини зверніться до ветеринара.",
};

/** Honest about the method: tested on rendered videos, not yet against breaths counted on real pets. */
const VALIDATION =
  'Videos rendered at 12–45 breaths a minute are measured within ±1.5 and noise or a flickering light is refused in unit and integration tests; the rate has not been compared with breaths counted on real pets: docs/respiratory-rate.md#accuracy';

export const measurementHonesty = (lang: Language) => ({ disclaimer: DISCLAIMERS[lang], validation: VALIDATION });
