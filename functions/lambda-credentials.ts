// The AWS SDK's default credential chain as it runs in Lambda: the function role's credentials,
// which Lambda hands to every function in the environment. lib/functions/bundling.ts puts this module in
// place of @aws-sdk/credential-provider-node in the bundles, which leaves out the links Lambda
// never reaches (SSO, shared config files, credential processes, web identity tokens, container
// and instance metadata) and the STS and SSO clients they carry: 135 KB of every bundle, and
// their load time in every cold start. Anywhere else (the local servers, the tests, the scripts)
// the SDK keeps its whole chain, since only the bundles see this module.
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
