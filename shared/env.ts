// Environment variables are read once, when a module that needs one is first loaded, and a missing
// one stops the process there (a cold start fails loudly instead of a request failing later).

export function requireEnv(name: string, { minLength = 1 }: { minLength?: number } = {}): string {
  const value = process.env[name];
  if (value === undefined || value.length < minLength) {
    throw new Error(
      `Environment variable ${name} must be set${minLength > 1 ? ` (${minLength}+ chars)` : ''}.`,
    );
  }
  return value;
}
