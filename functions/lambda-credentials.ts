// The AWS SDK's default credential chain as Lambda runs it: the role's credentials from the environment.
// The bundles use it in place of @aws-sdk/credential-provider-node (lib/functions/bundling.ts), without
// the links Lambda never reaches (SSO, shared config, credential processes, web identity, container and
// instance metadata) and the STS and SSO clients they load at cold start. Elsewhere the SDK keeps them all.
import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Reads the environment once, as the default chain does: Lambda's credentials do not change
 * during an instance's life, and the SDK asks its provider on every request.
 */
export const defaultProvider: typeof fromEnv = (init) => {
  const fromEnvironment = fromEnv(init);
  let credentials: ReturnType<typeof fromEnvironment> | undefined;
  return () => (credentials ??= fromEnvironment());
};
