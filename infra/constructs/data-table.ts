import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEXES, REQUESTS_TABLE, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import type { Stage } from '../stage.ts';

/**
 * The single table, built from the same key constants the repositories and the local bootstrap use, and the requests
 * table beside it (idempotency records and rate-limit windows: transient, so no stream and never retained).
 */
export class DataTable extends Construct {
  readonly table: Table;
  readonly requestsTable: Table;

  constructor(scope: Construct, id: string, props: { stage: Stage }) {
    super(scope, id);
    const production = props.stage === 'production';
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEY.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEY.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: production,
      removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    for (const [indexName, keys] of Object.entries(INDEXES)) {
      this.table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: keys.partitionKey, type: AttributeType.STRING },
        sortKey: { name: keys.sortKey, type: AttributeType.STRING },
      });
    }
    this.requestsTable = new Table(this, 'RequestsTable', {
      partitionKey: { name: REQUESTS_TABLE.partitionKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // Cheap for a table this small, and cdk-nag's rule for every table; a restore is for forensics, not service.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.DESTROY,
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: REQUESTS_TABLE.ttlAttribute,
    });
  }
}
