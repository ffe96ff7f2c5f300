import { RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { Stage } from '../stage.ts';

/** The KMS key that encrypts webhook signing secrets: routes encrypt with it, the deliverer decrypts. */
export class WebhookSecrets extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: { stage: Stage }) {
    super(scope, id);
    this.key = new Key(this, 'SigningSecretsKey', {
      description: 'Encrypts webhook signing secrets',
      enableKeyRotation: true,
      removalPolicy: props.stage === 'production' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
