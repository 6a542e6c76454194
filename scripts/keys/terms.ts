// When a key ends, as `npm run keys` reads it: `--expires` is an ISO 8601 date-time with its zone
// or a duration from now, `--overlap` a duration. Each mistake is a KeysError of one line, so that
// a typo is refused before anything is written, never taken for "no expiry" or for "now".
import { KeysError } from '#scripts/keys/target.ts';

const DURATION = /^(\d{1,9})([smhd])$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_HELP = 'a duration like 90s, 30m, 12h or 30d';

/** A date-time with a zone; seconds and their fraction optional. */
const DATE_TIME =
  /^(?<date>\d{4}-\d{2}-\d{2})T(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.\d{1,9})?)?(?<zone>Z|[+-]\d{2}:\d{2})$/i;

/** The last instant a key may end at: four-digit years keep the stored timestamps sortable as text. */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

/** A duration in milliseconds, or undefined when the text is not one. */
function durationMs(text: string): number | undefined {
  const [, amount, unit = ''] = DURATION.exec(text) ?? [];
  const perUnit = UNIT_MS[unit];
  return amount === undefined || perUnit === undefined ? undefined : Number(amount) * perUnit;
}

/**
 * The instant an ISO 8601 date-time names, or undefined when it names none. Date.parse rolls a
 * 30 February over into March, so the date and time are also checked to be what they say.
 */
function dateTimeMs(text: string): number | undefined {
  const parts = DATE_TIME.exec(text)?.groups;
  if (!parts) return undefined;
  const { date = '', hour = '', minute = '', second = '00', zone = '' } = parts;
  const sameDay = new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
  const zoneMinutes = zone.toUpperCase() === 'Z' ? 0 : Number(zone.slice(4));
  const valid = Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60 && zoneMinutes < 60;
  const at = Date.parse(text.toUpperCase());
  return sameDay && valid && Number.isFinite(at) ? at : undefined;
}

const ending = (option: string, text: string, at: number) => {
  if (at > LATEST) throw new KeysError(`${option} ${text}: too far ahead, past the year 9999.`);
  return new Date(at).toISOString();
};

/** `--expires`: when a new key ends, as an ISO timestamp; it must be in the future. */
export function readExpiry(text: string, now = Date.now()): string {
  const fromNow = durationMs(text);
  const at = fromNow === undefined ? dateTimeMs(text) : now + fromNow;
  if (at === undefined) {
    const hint = /^\d{4}-\d{2}-\d{2}$/.test(text) ? ' (add a time and zone: 2030-01-31T00:00:00Z)' : '';
    throw new KeysError(
      `--expires ${text}: not ${DURATION_HELP}, nor an ISO 8601 date-time with its zone, ` +
        `like 2030-01-31T18:00:00Z${hint}.`,
    );
  }
  if (at <= now) {
    throw new KeysError(
      `--expires ${text}: that is not in the future (it is ${new Date(now).toISOString()}).`,
    );
  }
  return ending('--expires', text, at);
}

/** `--overlap`: how long a rotated key keeps working, as the ISO timestamp it ends at; `0s` is now. */
export function readOverlapEnd(text: string, now = Date.now()): string {
  const overlap = durationMs(text);
  if (overlap === undefined) {
    const negative = text.startsWith('-') && durationMs(text.slice(1)) !== undefined;
    throw new KeysError(
      negative
        ? `--overlap ${text}: must not be negative (0s ends the old key at once).`
        : `--overlap ${text}: not ${DURATION_HELP}.`,
    );
  }
  return ending('--overlap', text, now + overlap);
}
