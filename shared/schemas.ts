// The single source of every type the API exchanges: requests are validated with these schemas, the
// OpenAPI document is generated from them, TypeScript types are inferred from them. zod/mini
// (tree-shakable) rather than classic zod: the same schemas for a fraction of the bundle and of a
// cold start's import time (docs/performance.md).
import * as z from 'zod/mini';
import { pureSchema } from '#shared/pure-schema.ts';

export const INT64_MAX = 9_223_372_036_854_775_807n;
/** Ids stay within the range every JSON client reads exactly (the contract's 1 .. 2^53-1). */
export const PET_ID_MAX = Number.MAX_SAFE_INTEGER;
export const NAME_MAX_CODE_POINTS = 100;
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : message;

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PetStatus = /* @__PURE__ */ pureSchema(() =>
  z.enum(PET_STATUSES, {
    error: requiredOr(`must be one of ${PET_STATUSES.join(', ')}`),
  }),
);
export type PetStatus = z.infer<typeof PetStatus>;

/** Counted in code points, as the contract does: an emoji is one. */
function hasAllowedLength(name: string): boolean {
  const codePoints = [...name].length;
  return codePoints >= 1 && codePoints <= NAME_MAX_CODE_POINTS;
}

/**
 * Unicode's control characters (general category Cc): C0 (U+0000-U+001F), DEL (U+007F) and C1
 * (U+0080-U+009F), as regular expression ranges (the OpenAPI pattern uses them too). A name is
 * shown in terminals and logs, where ESC, CSI, CR and LF rewrite what a reader sees; no name needs
 * one. Format characters (the ZWJ inside emoji) are not controls and stay allowed.
 */
export const CONTROL_CHARACTER_RANGES = String.raw`\u0000-\u001F\u007F-\u009F`;
const CONTROL_CHARACTERS = new RegExp(`[${CONTROL_CHARACTER_RANGES}]`);

export const PetName = /* @__PURE__ */ pureSchema(() =>
  z.string({ error: requiredOr('must be a string') }).check(
    // A lone surrogate is no Unicode text: DynamoDB, storing UTF-8, would refuse it.
    z.refine((name: string) => name.isWellFormed(), { error: 'must be valid Unicode text', abort: true }),
    z.refine(hasAllowedLength, {
      error: `must be 1 to ${NAME_MAX_CODE_POINTS} characters`,
      abort: true,
    }),
    z.refine((name: string) => !CONTROL_CHARACTERS.test(name), {
      error: 'must not contain control characters (U+0000-U+001F, U+007F-U+009F)',
      abort: true,
    }),
    z.refine((name: string) => name.trim().length > 0, { error: 'must not be only whitespace' }),
  ),
);

const positiveInt64Rule = `must be an integer from 1 to ${INT64_MAX}`;
/** JSON bodies are parsed with shared/json.ts, which turns every integral number into a bigint. */
const CategoryId = /* @__PURE__ */ pureSchema(() =>
  z
    .bigint({ error: requiredOr(positiveInt64Rule) })
    .check(z.minimum(1n, { error: positiveInt64Rule }), z.maximum(INT64_MAX, { error: positiveInt64Rule })),
);

export const NewPet = /* @__PURE__ */ pureSchema(() =>
  z.strictObject(
    { name: PetName, categoryId: CategoryId, status: z._default(PetStatus, 'available') },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown field' : 'must be a JSON object') },
  ),
);
export type NewPet = z.output<typeof NewPet>;

export const PetId = /* @__PURE__ */ pureSchema(() => z.int().check(z.minimum(1), z.maximum(PET_ID_MAX)));
export const Pet = /* @__PURE__ */ pureSchema(() =>
  z.strictObject({
    id: PetId,
    name: z.string(),
    categoryId: z.bigint(),
    status: PetStatus,
  }),
);
export type Pet = z.infer<typeof Pet>;

/** A plain decimal integer as the contract defines it: no sign, no leading zeros, no spaces. */
const decimalInteger = /^[1-9][0-9]*$/;

const pageSizeRule = `must be an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`;
/**
 * listPets' query: the page size, the filters, the cursor. Every field but `cursor` is repeated on the
 * next page's Link and every filter binds the cursor (shared/http/pagination.ts); each filter needs
 * its index (LIST_FILTERS in shared/store/table.ts, which the type checker holds to this list).
 */
export const ListPetsQuery = /* @__PURE__ */ pureSchema(() =>
  z.object({
    limit: z._default(
      z
        .pipe(z.string().check(z.regex(decimalInteger, { error: pageSizeRule })), z.transform(Number))
        .check(z.refine((limit: number) => limit <= PAGE_SIZE.max, { error: pageSizeRule })),
      PAGE_SIZE.default,
    ),
    status: z.optional(PetStatus),
    cursor: z.optional(z.string()),
  }),
);
export type ListPetsQuery = z.output<typeof ListPetsQuery>;
/** The query's filters: every field but the page size and the position. */
export type ListFilters = Omit<ListPetsQuery, 'limit' | 'cursor'>;

export const GetPetPath = /* @__PURE__ */ pureSchema(() =>
  z.object({
    petId: z
      .pipe(
        z
          .string({ error: requiredOr(positiveInt64Rule) })
          .check(z.regex(decimalInteger, { error: positiveInt64Rule })),
        z.transform((id: string) => BigInt(id)),
      )
      .check(z.refine((id: bigint) => id <= INT64_MAX, { error: positiveInt64Rule })),
  }),
);
export type GetPetPath = z.output<typeof GetPetPath>;
