// The headers every getPet response carries, errors included: the operation is deprecated
// (RFC 9745), has a sunset date (RFC 8594) and names listPets as its successor.
import { BASE_PATH } from '#shared/http/routes.ts';

/** getPet is deprecated since 2026-01-01 (RFC 9745) and removed on 2030-12-05 (RFC 8594). */
export const GET_PET_DEPRECATION_HEADERS = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: `<${BASE_PATH}/pets>; rel="successor-version"`,
} as const;
