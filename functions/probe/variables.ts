// The probe canary's environment, named once: the stack (lib/monitoring/probe-canary.ts) sets each
// variable and canary.ts reads them. A module of its own, so that the CDK app imports the names
// without the canary's Secrets Manager client.

export const PROBE_VARIABLES = {
  /** The API's base URL, ending in /v1 (a trailing slash is fine). */
  baseUrl: 'PETSTORE_PROBE_BASE_URL',
  /** The secret whose SecretString is `{"keyId": "...", "apiKey": "..."}`. */
  keySecretArn: 'PETSTORE_PROBE_KEY_SECRET_ARN',
  /** `true` to create a pet and replay its creation too (staging), `false` to only read (production). */
  creates: 'PETSTORE_PROBE_CREATES',
} as const;
