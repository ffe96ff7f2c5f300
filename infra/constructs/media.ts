import {
  type CfnElement,
  DefaultStackSynthesizer,
  Duration,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import {
  Distribution,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  CachePolicy,
  PriceClass,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type LifecycleRule, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { Stage } from '../stage.ts';
import { UPLOADS_PREFIX } from '../../shared/domain/images/uploads.ts';

export interface MediaProps {
  stage: Stage;
  /** Rendered catalogue JPEGs (`npm run data:images`); omitted, the catalogue objects are not uploaded. */
  catalogueImagesDir?: string | undefined;
}

/**
 * The private, encrypted, TLS-only media bucket (catalogue images, uploads) behind a CloudFront distribution that
 * alone may read it (origin access control): image URLs are CDN URLs, the bucket is never public.
 */
export class Media extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** The media bucket's access logs and the CDN's standard logs (and the API distribution's, behind the firewall). */
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: MediaProps) {
    super(scope, id);
    const production = props.stage === 'production';
    const accessLogs = new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.accessLogs = accessLogs;
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'media-bucket/',
      removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      // Production keeps what was overwritten or deleted for a while (a wrong delete or a bad script is undone from
      // the previous version); uploaded originals, which may carry GPS and camera metadata, only for a day.
      versioned: production,
      lifecycleRules: [
        // Two-step pet uploads are multipart uploads; parts of one never completed are not kept.
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...(production ? noncurrentVersionRules() : []),
      ],
    });
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Pet API media (${props.stage})`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        // Browsers take every served object as the type it says (set when the service writes it), never sniff it
        // into something else; the local media front (scripts/local/media-front.ts) answers the same.
        responseHeadersPolicy: new ResponseHeadersPolicy(this, 'ServedMediaHeaders', {
          comment: `Pet API media (${props.stage}): objects are never sniffed`,
          securityHeadersBehavior: { contentTypeOptions: { override: true } },
        }),
      },
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: accessLogs,
      logFilePrefix: 'cdn/',
    });
    // Pet media is private (served only through presigned URLs) and uploaded originals are never served (only their
    // metadata-free copies under images/): the CDN may read anything but pets/ and uploads/.
    for (const prefix of ['pets/', UPLOADS_PREFIX])
      this.bucket.addToResourcePolicy(
        new PolicyStatement({
          effect: Effect.DENY,
          principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
          actions: ['s3:GetObject'],
          resources: [this.bucket.arnForObjects(`${prefix}*`)],
        }),
      );
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions::AwsSolutions-CFR1',
      reason: 'Pet images are served worldwide; no country is excluded.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions::AwsSolutions-CFR2',
      reason:
        'Read-only static images behind origin access control; attach a WAF web ACL per stage if abuse appears (docs/operations.md).',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions::AwsSolutions-CFR4',
      reason:
        'The default *.cloudfront.net certificate cannot pin TLS 1.2; a stage with its own domain sets TLSv1.2_2021 (already requested above).',
    });
    if (props.catalogueImagesDir) {
      new BucketDeployment(this, 'Catalogue', {
        sources: [Source.asset(props.catalogueImagesDir)],
        destinationBucket: this.bucket,
        destinationKeyPrefix: 'catalogue/',
        // Served inline like every media object; the type is set from each file's extension.
        contentDisposition: 'inline',
        prune: false,
        memoryLimit: 1024,
      });
      // The copy handler is a stack-level singleton of aws-cdk-lib, so its findings are acknowledged on the stack,
      // each by its exact finding id.
      const stackScope = Validations.of(Stack.of(this));
      const handlerReason =
        'CDK BucketDeployment copy handler (aws-cdk-lib singleton) that uploads the rendered catalogue into catalogue/.';
      for (const finding of [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        'AwsSolutions-IAM5[Action::s3:List*]',
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetBucketName(Stack.of(this))}/*]`,
        `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
        'AwsSolutions-L1',
      ]) {
        stackScope.acknowledge({ id: `AwsSolutions::${finding}`, reason: handlerReason });
      }
    }
  }

  get baseUrl(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }
}

/** How long production's media bucket keeps a replaced or deleted object: uploaded originals a day, the rest 30 days. */
export const NONCURRENT_DAYS = { uploads: 1, other: 30 } as const;

function noncurrentVersionRules(): LifecycleRule[] {
  return [
    { prefix: UPLOADS_PREFIX, noncurrentVersionExpiration: Duration.days(NONCURRENT_DAYS.uploads) },
    { noncurrentVersionExpiration: Duration.days(NONCURRENT_DAYS.other), expiredObjectDeleteMarker: true },
  ];
}

/**
 * The CDK bootstrap asset bucket's name as cdk-nag prints it in a finding: the deploy account and region where the
 * stack has them (the CDK CLI always supplies a region), the pseudo parameters where it is environment-agnostic.
 */
export function assetBucketName(stack: Stack): string {
  const qualifier = stack.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const concreteOr = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  return `cdk-${qualifier}-assets-${concreteOr(stack.account, 'AWS::AccountId')}-${concreteOr(stack.region, 'AWS::Region')}`;
}
