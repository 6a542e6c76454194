// The probe key's secret, as `npm run keys -- probe` writes it and the canary reads it: JSON
// `{"keyId","apiKey"}`, the key and its id, which says which key the probe runs with. One schema for
// the writer and the reader, so that neither can drift from the other.
import * as z from 'zod/mini';

const ProbeKeySecret = z.object({ keyId: z.string(), apiKey: z.string().check(z.minLength(1)) });
export type ProbeKeySecret = z.infer<typeof ProbeKeySecret>;

/** The secret's text: these two fields, checked as the reader checks them, and nothing else. */
export const encodeProbeKeySecret = (secret: ProbeKeySecret): string =>
  JSON.stringify(ProbeKeySecret.parse(secret));

/** The key and its id, or undefined when the text is not what encodeProbeKeySecret writes. */
export function decodeProbeKeySecret(text: string | undefined): ProbeKeySecret | undefined {
  try {
    return ProbeKeySecret.safeParse(JSON.parse(text ?? '')).data;
  } catch {
    return undefined;
  }
}
