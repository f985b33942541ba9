/**
 * The records of the Animal Adoption Service interface (interface.md), as zod schemas.
 * int64 fields are exact decimal strings inside the app (see json-codec.ts).
 */
import { t } from '../i18n';
import { isInt64String } from './int64';
import { z } from '../basics/zod';

export const ANIMAL_STATUSES = ['available', 'pending', 'sold'] as const;
export const AnimalStatus = z.enum(ANIMAL_STATUSES);
export type AnimalStatus = z.infer<typeof AnimalStatus>;

/** An int64 value as an exact decimal string. */
export const Int64 = z.string().check(z.refine(isInt64String, { error: () => t('contract.int64') }));

/** The creation payload: name and categoryId required, status optional, no id. */
export const NewAnimal = z.object({
  name: z
    .string({ error: () => t('contract.nameRequired') })
    .check(
      z.trim(),
      z.minLength(1, { error: () => t('contract.nameRequired') }),
      z.maxLength(200, { error: () => t('contract.nameTooLong', { max: 200 }) }),
    ),
  categoryId: Int64,
  status: z.optional(AnimalStatus),
});
export type NewAnimal = z.infer<typeof NewAnimal>;

/**
 * An animal as the service returns it. Unknown extra fields are kept (a newer server may
 * add some); a record without a valid id, name or categoryId is rejected.
 */
export const Animal = z.looseObject({
  id: Int64,
  name: z.string(),
  categoryId: Int64,
  status: z.optional(AnimalStatus),
});
export type Animal = z.infer<typeof Animal>;

/** The list response: a bare array of animals. */
export const Animals = z.array(Animal);

/** The service's error body. Unknown codes are kept as they are. */
export const ServiceError = z.looseObject({
  code: z.string(),
  message: z.string(),
  status: z.int(),
});
export type ServiceError = z.infer<typeof ServiceError>;

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

/** Query of `GET /pets`: limit 1..100 (default 20), optional status filter. */
export const ListQuery = z.object({
  limit: z._default(
    z
      .int({ error: () => t('contract.limitWhole') })
      .check(
        z.gte(LIMIT_MIN, { error: () => t('contract.limitMin', { min: LIMIT_MIN }) }),
        z.lte(LIMIT_MAX, { error: () => t('contract.limitMax', { max: LIMIT_MAX }) }),
      ),
    LIMIT_DEFAULT,
  ),
  status: z.optional(AnimalStatus),
});
export type ListQuery = z.infer<typeof ListQuery>;
