// The HMAC secret of listPets' pagination cursors. Generated once by Secrets Manager and never
// rotated: cursors must stay valid across deployments, and a new secret would void every cursor
// in circulation. listPets receives it through a CloudFormation dynamic reference, so the value is
// resolved at deploy time and never written into the template or the cloud assembly.
import { Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageSettings } from '#lib/stage-settings.ts';

export class PetstoreCursorSecret extends Secret {
  constructor(scope: Construct, id: string, settings: StageSettings) {
    super(scope, id, {
      description: `Pet store ${settings.name}: HMAC key of listPets pagination cursors`,
      // 64 alphanumeric characters: 380 bits, above the code's 32-character minimum.
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: settings.removalPolicy,
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotation would invalidate every pagination cursor in circulation; the contract requires cursors to survive deployments. The secret is only an HMAC key.',
    });
  }

  /** `{{resolve:secretsmanager:...}}`: CloudFormation puts the value into the function at deploy time. */
  get dynamicReference(): string {
    return this.secretValue.unsafeUnwrap();
  }
}
