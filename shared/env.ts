// The one module under shared/ that reads the environment, and only when a Lambda function's handler
// is composed at cold start (functions/lambda-environment.ts): a missing setting fails the cold start
// loudly instead of a request later. Everything else gets its configuration passed in.

export function requireEnv(name: string, { minLength = 1 }: { minLength?: number } = {}): string {
  const value = process.env[name];
  if (value === undefined || value.length < minLength) {
    throw new Error(
      `Environment variable ${name} must be set${minLength > 1 ? ` (${minLength}+ chars)` : ''}.`,
    );
  }
  return value;
}
