import { describe, expect, it } from 'vitest';
import { edgeFrom } from '../../infra/edge.ts';

const CERT = (region: string) => `arn:aws:acm:${region}:123456789012:certificate/11111111-2222-3333-4444-555555555555`;
const context = (values: Record<string, unknown>) => (key: string) => values[key];

describe('edgeFrom (-c domainName, -c certificateArn, -c hostedZoneId, -c waf)', () => {
  it('gives a stage without any of them no domain and no firewall, with or without a region', () => {
    expect(edgeFrom(context({}), 'production', undefined)).toEqual({ waf: false });
    expect(edgeFrom(context({ waf: 'false' }), 'staging', 'eu-west-1')).toEqual({ waf: false });
  });

  it("takes a domain with a certificate in the stage's region, and the hosted zone when given", () => {
    expect(
      edgeFrom(
        context({ domainName: 'api.pets.example.com', certificateArn: CERT('eu-west-1'), hostedZoneId: 'Z0123ABC' }),
        'staging',
        'eu-west-1',
      ),
    ).toEqual({
      waf: false,
      domain: { domainName: 'api.pets.example.com', certificateArn: CERT('eu-west-1'), hostedZoneId: 'Z0123ABC' },
    });
  });

  it("prefers the stage's own keys, so values in cdk.json cannot reach the other stage", () => {
    const values = context({
      'production.waf': true,
      'production.domainName': 'api.example.com',
      'production.certificateArn': CERT('us-east-1'),
    });
    expect(edgeFrom(values, 'production', 'eu-west-1')).toMatchObject({
      waf: true,
      domain: { domainName: 'api.example.com' },
    });
    expect(edgeFrom(values, 'staging', 'eu-west-1')).toEqual({ waf: false });
  });

  it('behind the firewall takes the certificate from us-east-1 (CloudFront) and a pinned origin secret version', () => {
    expect(
      edgeFrom(
        context({
          waf: 'true',
          domainName: 'api.example.com',
          certificateArn: CERT('us-east-1'),
          'production.originSecretVersion': 'a1b2c3d4-0000-1111-2222-333344445555',
        }),
        'production',
        'eu-west-1',
      ),
    ).toEqual({
      waf: true,
      domain: { domainName: 'api.example.com', certificateArn: CERT('us-east-1') },
      originSecretVersion: 'a1b2c3d4-0000-1111-2222-333344445555',
    });
  });

  it.each([
    ['a firewall without a region', { waf: 'true' }, undefined, /-c waf and -c domainName need the stage's region/],
    [
      'a domain without a region',
      { domainName: 'api.example.com', certificateArn: CERT('eu-west-1') },
      undefined,
      /need the stage's region/,
    ],
    ['waf other than true or false', { waf: 'yes' }, 'eu-west-1', /-c waf must be true or false \(got "yes"\)/],
    [
      'a bad domain',
      { domainName: 'API_Example..com', certificateArn: CERT('eu-west-1') },
      'eu-west-1',
      /-c domainName must be a host name such as api.example.com.*got "API_Example..com"/,
    ],
    [
      'a domain with a scheme',
      { domainName: 'https://api.example.com', certificateArn: CERT('eu-west-1') },
      'eu-west-1',
      /-c domainName must be a host name/,
    ],
    [
      'a domain without a certificate',
      { domainName: 'api.example.com' },
      'eu-west-1',
      /-c domainName needs -c certificateArn/,
    ],
    [
      'a certificate without a domain',
      { certificateArn: CERT('eu-west-1') },
      'eu-west-1',
      /-c domainName must be a host name/,
    ],
    [
      'a malformed certificate ARN',
      { domainName: 'api.example.com', certificateArn: 'arn:aws:iam::123456789012:certificate/x' },
      'eu-west-1',
      /needs -c certificateArn, the ARN of an ACM certificate/,
    ],
    [
      "a certificate from another region than the stage's",
      { domainName: 'api.example.com', certificateArn: CERT('us-east-1') },
      'eu-west-1',
      /-c certificateArn is in us-east-1, but the API's custom domain takes a certificate from the stage's region, eu-west-1/,
    ],
    [
      'behind the firewall, a certificate outside us-east-1',
      { waf: true, domainName: 'api.example.com', certificateArn: CERT('eu-west-1') },
      'eu-west-1',
      /-c certificateArn is in eu-west-1, but CloudFront \(-c waf=true\) takes certificates from us-east-1 only/,
    ],
    [
      'a bad hosted zone id',
      { domainName: 'api.example.com', certificateArn: CERT('eu-west-1'), hostedZoneId: 'example.com' },
      'eu-west-1',
      /-c hostedZoneId must be a Route 53 hosted zone id/,
    ],
    [
      'an origin secret version without the firewall',
      { originSecretVersion: 'a1b2c3d4-0000-1111-2222-333344445555' },
      'eu-west-1',
      /-c originSecretVersion is for a stage with -c waf=true/,
    ],
    [
      'a malformed origin secret version',
      { waf: true, originSecretVersion: 'v2' },
      'eu-west-1',
      /-c originSecretVersion must be a Secrets Manager version id/,
    ],
  ])('refuses %s, saying what is wrong', (_name, values, region, message) => {
    expect(() => edgeFrom(context(values), 'production', region)).toThrow(message);
  });
});
