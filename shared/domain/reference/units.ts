// `units=imperial` on the routes that answer a weight: pounds next to the kilograms, the unit named in each field.
import * as z from 'zod/mini';
import { caseInsensitiveEnum } from '../../schema/params.ts';

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

export const unitsParam = z._default(caseInsensitiveEnum(UNIT_SYSTEMS), 'metric');

/** The international avoirdupois pound (1959), exact. */
const KG_PER_LB = 0.45359237;

/** Pounds from the kilograms as answered, to 0.1 lb (about 45 g, finer than the 0.1 kg it converts). */
export const kgToLb = (kg: number) => Math.round((kg / KG_PER_LB) * 10) / 10;

export const rangeToLb = (range: { min: number; max: number }) => ({ min: kgToLb(range.min), max: kgToLb(range.max) });
