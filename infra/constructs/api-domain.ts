import { ApiMapping, DomainName, type HttpApi, type IStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { CustomDomain } from '../edge.ts';

/**
 * The stage's own host name on the HTTP API (a regional custom domain, TLS 1.2) and, given the hosted zone, its alias
 * record. The API is mapped at the domain's root, not at `v1`: every route key already starts with `/v1`, and API
 * Gateway strips a mapping's path before it matches routes, so a `v1` mapping would need `/v1/v1/…`. Mapped at the
 * root, `https://<domain>/v1/…` reaches the same routes as `https://<api id>.execute-api.<region>.amazonaws.com/v1/…`,
 * which keeps working.
 */
export class ApiDomain extends Construct {
  /** Where the name's DNS record points (the alias target), for a zone this stack does not manage. */
  readonly dnsTarget: string;

  constructor(scope: Construct, id: string, props: { domain: CustomDomain; httpApi: HttpApi; stage: IStage }) {
    super(scope, id);
    const { domainName, certificateArn, hostedZoneId } = props.domain;
    const name = new DomainName(this, 'Name', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
    });
    new ApiMapping(this, 'Mapping', { api: props.httpApi, domainName: name, stage: props.stage });
    this.dnsTarget = name.regionalDomainName;
    if (hostedZoneId)
      new ARecord(this, 'Alias', {
        zone: HostedZone.fromHostedZoneId(this, 'Zone', hostedZoneId),
        // Fully qualified, so the zone's own name (not known from its id) is not needed.
        recordName: `${domainName}.`,
        target: RecordTarget.fromAlias(
          new ApiGatewayv2DomainProperties(name.regionalDomainName, name.regionalHostedZoneId),
        ),
      });
  }
}
