// The stage's public edge, from context: a custom domain (-c domainName, -c certificateArn, -c hostedZoneId) and a
// firewall (-c waf=true: CloudFront with an AWS WAF web ACL in front of the API). Each value may be keyed by the stage
// (`-c production.domainName=…`, which wins), so that values committed to cdk.json cannot reach the other stage.
// Without any of them the stage deploys exactly as it did before they existed.
import type { Stage } from './stage.ts';

export interface CustomDomain {
  domainName: string;
  /** ACM certificate for the name: in the stage's region, or in us-east-1 behind the firewall (CloudFront's). */
  certificateArn: string;
  /** The Route 53 public hosted zone that gets the alias record; without it the operator points DNS by hand. */
  hostedZoneId?: string;
}

export interface Edge {
  domain?: CustomDomain;
  waf: boolean;
  /**
   * The origin secret's version CloudFront sends (`-c <stage>.originSecretVersion`, set by a rotation:
   * docs/operations.md#firewall-and-origin-secret); without it, the version the secret was created with.
   */
  originSecretVersion?: string;
}

/** CloudFront takes web ACLs (scope CLOUDFRONT) and certificates from this region only. */
export const CLOUDFRONT_REGION = 'us-east-1';

const HOST_NAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]{36}$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
const SECRET_VERSION_ID = /^[A-Za-z0-9-]{32,64}$/;

/**
 * The stage's edge from context (`context` reads a value; `region` is the stage's, undefined when the deploy has
 * none). Throws a message naming the context value and what it must be for anything it cannot deploy.
 */
export function edgeFrom(context: (key: string) => unknown, stage: Stage, region: string | undefined): Edge {
  const value = (key: string) => context(`${stage}.${key}`) ?? context(key);
  const waf = flag(value('waf'));
  const [domainName, certificateArn, hostedZoneId] = ['domainName', 'certificateArn', 'hostedZoneId'].map(value);
  const originSecretVersion = value('originSecretVersion');
  if (domainName === undefined && certificateArn === undefined && hostedZoneId === undefined && !waf) {
    if (originSecretVersion !== undefined) throw new Error('-c originSecretVersion is for a stage with -c waf=true');
    return { waf };
  }
  if (region === undefined || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
    throw new Error(
      `-c waf and -c domainName need the stage's region (CDK_DEFAULT_REGION, or an AWS profile with a region; got ${String(region)}): the web ACL and the certificate are placed and checked by it`,
    );
  const edge: Edge = { waf };
  if (domainName !== undefined || certificateArn !== undefined || hostedZoneId !== undefined)
    edge.domain = customDomain(domainName, certificateArn, hostedZoneId, waf ? CLOUDFRONT_REGION : region, waf);
  if (originSecretVersion !== undefined) {
    if (!waf) throw new Error('-c originSecretVersion is for a stage with -c waf=true');
    if (typeof originSecretVersion !== 'string' || !SECRET_VERSION_ID.test(originSecretVersion))
      throw new Error(
        `-c originSecretVersion must be a Secrets Manager version id (the VersionId put-secret-value printed), got ${JSON.stringify(originSecretVersion)}`,
      );
    edge.originSecretVersion = originSecretVersion;
  }
  return edge;
}

function flag(value: unknown): boolean {
  if (value === undefined || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new Error(`-c waf must be true or false (got ${JSON.stringify(value)})`);
}

function customDomain(
  domainName: unknown,
  certificateArn: unknown,
  hostedZoneId: unknown,
  certificateRegion: string,
  waf: boolean,
): CustomDomain {
  if (typeof domainName !== 'string' || !HOST_NAME.test(domainName))
    throw new Error(
      `-c domainName must be a host name such as api.example.com (lower-case letters, digits and hyphens in dot-separated labels), got ${JSON.stringify(domainName)}`,
    );
  const arn = typeof certificateArn === 'string' ? CERTIFICATE_ARN.exec(certificateArn) : null;
  if (!arn)
    throw new Error(
      `-c domainName needs -c certificateArn, the ARN of an ACM certificate for it (arn:aws:acm:<region>:<account>:certificate/<id>), got ${JSON.stringify(certificateArn)}`,
    );
  if (arn[1] !== certificateRegion)
    throw new Error(
      `-c certificateArn is in ${arn[1]}, but ${waf ? 'CloudFront (-c waf=true) takes certificates from us-east-1 only' : `the API's custom domain takes a certificate from the stage's region, ${certificateRegion}`}: request or import the certificate for ${domainName} there`,
    );
  if (hostedZoneId !== undefined && (typeof hostedZoneId !== 'string' || !HOSTED_ZONE_ID.test(hostedZoneId)))
    throw new Error(
      `-c hostedZoneId must be a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ, got ${JSON.stringify(hostedZoneId)}`,
    );
  return { domainName, certificateArn: arn[0], ...(typeof hostedZoneId === 'string' && { hostedZoneId }) };
}
