import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { consumers } from '../../events/consumers.ts';
import { ORIGIN_HEADER, OriginSecret } from '../../shared/http/origin-check.ts';
import {
  COUNTED_RULES,
  IP_RATE_LIMIT,
  MANAGED_RULE_GROUPS,
  RATE_LIMITED_BODY,
} from '../../infra/constructs/api-firewall.ts';
import { CLOUDFRONT_REGION, type Edge } from '../../infra/edge.ts';
import { limitBreaches, measureStack } from '../../infra/limits.ts';
import { stageStacks } from '../../infra/stack.ts';
import { flattenedTemplate } from '../support/assembly.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const scratch = scratchDirs('edge');

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string[] }>;

const ENV = { account: '123456789012', region: 'eu-west-1' };
const DOMAIN = 'api.pets.example.com';
const ZONE = 'Z0123456789ABCDEFGHIJ';
const certificate = (region: string) =>
  `arn:aws:acm:${region}:123456789012:certificate/11111111-2222-3333-4444-555555555555`;
const SECRET_VERSION = 'a1b2c3d4-0000-1111-2222-333344445555';

/** One app per shape, synthesized once for all the assertions of its block, with cdk-nag failing any finding. */
function synthStage(stage: 'staging' | 'production', edge: Edge) {
  const app = new App({ outdir: scratch('cdk'), context: { 'aws:cdk:bundling-stacks': [] } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const stacks = stageStacks(app, `PetApi-${stage}`, { stage, edge, env: ENV });
  const assembly = app.synth();
  const resources = flattenedTemplate(stacks.stack).toJSON().Resources as Resources;
  const outputs = Template.fromStack(stacks.stack).toJSON().Outputs as Record<string, { Value: unknown }>;
  const figures = [stacks.stack, ...(stacks.firewall ? [stacks.firewall] : [])].map((s) =>
    measureStack(assembly.directory, s.stackName),
  );
  return { stacks, resources, outputs, figures };
}

const ofType = (resources: Resources, type: string) => Object.values(resources).filter((r) => r.Type === type);
const routeFunctions = (resources: Resources) =>
  ofType(resources, 'AWS::Lambda::Function').filter((r) =>
    /^(GET|POST|PUT|PATCH|DELETE|ANY) \/v1/.test(String(r.Properties.Description)),
  );

describe('a stage with its own domain (-c domainName, -c certificateArn, -c hostedZoneId)', () => {
  let shape: ReturnType<typeof synthStage>;
  beforeAll(() => {
    shape = synthStage('staging', {
      waf: false,
      domain: { domainName: DOMAIN, certificateArn: certificate(ENV.region), hostedZoneId: ZONE },
    });
  });

  it('maps the domain root to the API stage, so https://<domain>/v1/… reaches the /v1 routes as the API endpoint does', () => {
    const [name] = ofType(shape.resources, 'AWS::ApiGatewayV2::DomainName');
    expect(name!.Properties).toMatchObject({
      DomainName: DOMAIN,
      DomainNameConfigurations: [{ CertificateArn: certificate(ENV.region), EndpointType: 'REGIONAL' }],
    });
    const mappings = ofType(shape.resources, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toEqual({
      ApiId: { Ref: expect.stringMatching(/^ApiHttpApi/) },
      DomainName: { Ref: expect.stringMatching(/^DomainName/) },
      Stage: '$default',
    });
    // Every route key keeps its /v1 prefix; the mapping strips nothing.
    for (const route of ofType(shape.resources, 'AWS::ApiGatewayV2::Route'))
      expect(route.Properties.RouteKey).toMatch(/^(\$default|[A-Z]+ \/v1\/)/);
    expect(shape.outputs.ApiUrl!.Value).toBe(`https://${DOMAIN}/v1`);
  });

  it('points the name at the regional domain in the hosted zone', () => {
    expect(ofType(shape.resources, 'AWS::Route53::RecordSet').map((r) => r.Properties)).toEqual([
      {
        HostedZoneId: ZONE,
        Name: `${DOMAIN}.`,
        Type: 'A',
        AliasTarget: {
          DNSName: { 'Fn::GetAtt': [expect.stringMatching(/^DomainName/), 'RegionalDomainName'] },
          HostedZoneId: { 'Fn::GetAtt': [expect.stringMatching(/^DomainName/), 'RegionalHostedZoneId'] },
        },
      },
    ]);
    expect(shape.outputs.DnsTarget).toBeUndefined();
  });

  it('adds no firewall: no web ACL, no API distribution, no origin check in the functions', () => {
    expect(shape.stacks.firewall).toBeUndefined();
    expect(ofType(shape.resources, 'AWS::CloudFront::Distribution')).toHaveLength(1); // the media CDN
    for (const fn of ofType(shape.resources, 'AWS::Lambda::Function'))
      expect(fn.Properties.Environment?.Variables?.ORIGIN_SECRET_ARN).toBeUndefined();
  });

  it('stays within the AWS limits checked at synth', () => {
    for (const figures of shape.figures) expect(limitBreaches(figures)).toEqual([]);
  });
});

describe('a stage behind the firewall (-c waf=true), with its own domain', () => {
  let shape: ReturnType<typeof synthStage>;
  let firewall: Resources;
  beforeAll(() => {
    shape = synthStage('production', {
      waf: true,
      domain: { domainName: DOMAIN, certificateArn: certificate(CLOUDFRONT_REGION), hostedZoneId: ZONE },
      originSecretVersion: SECRET_VERSION,
    });
    firewall = Template.fromStack(shape.stacks.firewall!).toJSON().Resources;
  });

  it('keeps the web ACL in a stack of its own in us-east-1, for CloudFront', () => {
    expect(shape.stacks.firewall!.region).toBe(CLOUDFRONT_REGION);
    expect(shape.stacks.stack.region).toBe(ENV.region);
    expect(ofType(shape.resources, 'AWS::WAFv2::WebACL')).toEqual([]);
    const [acl] = ofType(firewall, 'AWS::WAFv2::WebACL');
    expect(acl!.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
  });

  it('runs the common rule set (body size only counted: uploads are megabytes), known bad inputs and an IP rate rule', () => {
    const [acl] = ofType(firewall, 'AWS::WAFv2::WebACL');
    const rules = acl!.Properties.Rules as any[];
    expect(rules.map((r) => [r.Priority, r.Name])).toEqual([
      [0, MANAGED_RULE_GROUPS[0]],
      [1, MANAGED_RULE_GROUPS[1]],
      [2, 'RatePerIp'],
    ]);
    expect(rules[0].Statement.ManagedRuleGroupStatement).toMatchObject({
      VendorName: 'AWS',
      RuleActionOverrides: COUNTED_RULES.map((Name) => ({ Name, ActionToUse: { Count: {} } })),
    });
    expect(rules[1].Statement.ManagedRuleGroupStatement.RuleActionOverrides).toBeUndefined();
    expect(rules[2].Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: IP_RATE_LIMIT,
      EvaluationWindowSec: 300,
    });
    expect(rules[2].Action.Block.CustomResponse).toEqual({ ResponseCode: 429, CustomResponseBodyKey: 'rate-limited' });
    const body = acl!.Properties.CustomResponseBodies['rate-limited'];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual(RATE_LIMITED_BODY);
    expect(RATE_LIMITED_BODY).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  });

  it('puts a CloudFront distribution with that web ACL in front of the API, caching nothing and forwarding all but Host', () => {
    const distributions = ofType(shape.resources, 'AWS::CloudFront::Distribution').filter(
      (d) => d.Properties.DistributionConfig.WebACLId,
    );
    expect(distributions).toHaveLength(1);
    const config = distributions[0]!.Properties.DistributionConfig;
    expect(JSON.stringify(config.WebACLId)).toMatch(/ExportsReader.*WebAclArn/);
    expect(config).toMatchObject({
      Aliases: [DOMAIN],
      ViewerCertificate: { AcmCertificateArn: certificate(CLOUDFRONT_REGION), MinimumProtocolVersion: 'TLSv1.2_2021' },
      DefaultCacheBehavior: {
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
        OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
        ViewerProtocolPolicy: 'https-only',
      },
    });
    const [origin] = config.Origins;
    expect(origin.DomainName).toEqual({
      'Fn::Select': [
        2,
        { 'Fn::Split': ['/', { 'Fn::GetAtt': [expect.stringMatching(/^ApiHttpApi/), 'ApiEndpoint'] }] },
      ],
    });
    expect(origin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    // The header carries the secret's `current` value at the pinned version, resolved by CloudFormation, never in the template.
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: ORIGIN_HEADER,
        HeaderValue: {
          'Fn::Join': [
            '',
            [
              '{{resolve:secretsmanager:',
              { Ref: expect.stringMatching(/^OriginSecret/) },
              `:SecretString:current::${SECRET_VERSION}}}`,
            ],
          ],
        },
      },
    ]);
    expect(shape.outputs.ApiUrl!.Value).toBe(`https://${DOMAIN}/v1`);
  });

  it('generates the origin secret in the shape the functions read, and points the domain at the distribution', () => {
    const [secret] = ofType(shape.resources, 'AWS::SecretsManager::Secret').filter((s) =>
      String(s.Properties.Description).includes('CloudFront'),
    );
    const generated = secret!.Properties.GenerateSecretString;
    expect(generated).toMatchObject({ SecretStringTemplate: '{}', GenerateStringKey: 'current' });
    expect(OriginSecret.safeParse({ current: 'x'.repeat(generated.PasswordLength) }).success).toBe(true);
    expect(ofType(shape.resources, 'AWS::ApiGatewayV2::DomainName')).toEqual([]);
    const records = ofType(shape.resources, 'AWS::Route53::RecordSet').map((r) => r.Properties);
    expect(records.map((r) => [r.Name, r.Type])).toEqual([
      [`${DOMAIN}.`, 'A'],
      [`${DOMAIN}.`, 'AAAA'],
    ]);
    for (const record of records)
      expect(record.AliasTarget.DNSName).toEqual({
        'Fn::GetAtt': [expect.stringMatching(/^EdgeDistribution/), 'DomainName'],
      });
  });

  it('makes every route function, the $default fallback included, check the origin secret, through the secrets extension', () => {
    const checked = routeFunctions(shape.resources);
    expect(checked).toHaveLength(routes.length + 1);
    const secretRef = { Ref: expect.stringMatching(/^OriginSecret/) };
    const roles = new Set<string>();
    for (const fn of checked) {
      expect(fn.Properties.Environment.Variables.ORIGIN_SECRET_ARN).toEqual(secretRef);
      expect(JSON.stringify(fn.Properties.Layers)).toContain('AWS-Parameters-and-Secrets-Lambda-Extension');
      roles.add(fn.Properties.Role['Fn::GetAtt'][0]);
    }
    const policies = ofType(shape.resources, 'AWS::IAM::Policy');
    for (const role of roles) {
      const statements = policies
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      expect(statements, role).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
          Resource: secretRef,
        }),
      );
    }
    const workers = ofType(shape.resources, 'AWS::Lambda::Function').filter((fn) =>
      consumers.some((c) => fn.Properties.Description === c.description),
    );
    for (const fn of workers) expect(fn.Properties.Environment.Variables.ORIGIN_SECRET_ARN).toBeUndefined();
  });

  it('stays within the AWS limits checked at synth, both stacks', () => {
    expect(shape.figures.map((f) => f.stack)).toEqual(['PetApi-production', 'PetApi-production-Firewall']);
    for (const figures of shape.figures) expect(limitBreaches(figures)).toEqual([]);
  });
});

describe('a stage behind the firewall without its own domain', () => {
  let shape: ReturnType<typeof synthStage>;
  beforeAll(() => {
    shape = synthStage('staging', { waf: true });
  });

  it("serves the API on the distribution's own name, with the origin secret's version as created", () => {
    const [distribution] = ofType(shape.resources, 'AWS::CloudFront::Distribution').filter(
      (d) => d.Properties.DistributionConfig.WebACLId,
    );
    const config = distribution!.Properties.DistributionConfig;
    expect(config.Aliases).toBeUndefined();
    expect(config.Origins[0].OriginCustomHeaders[0].HeaderValue['Fn::Join'][1][2]).toBe(':SecretString:current::}}');
    const distributionId = shape.stacks.stack.getLogicalId(
      shape.stacks.stack.node.findAll().find((c) => c.node.path.endsWith('Edge/Distribution/Resource')) as never,
    );
    expect(shape.outputs.ApiUrl!.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/v1']],
    });
    expect(ofType(shape.resources, 'AWS::Route53::RecordSet')).toEqual([]);
    expect(shape.outputs.DnsTarget).toBeUndefined();
  });

  it('stays within the AWS limits checked at synth, both stacks', () => {
    for (const figures of shape.figures) expect(limitBreaches(figures)).toEqual([]);
  });
});
