import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import {
  AttributeType,
  BillingMode,
  type ITable,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { INDEXES, REQUESTS_TABLE, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import type { Stage } from '../stage.ts';

/** A table restored from a backup or point in time that the stage uses instead of the one it created. */
export interface RestoredTable {
  tableName: string;
  /** The restored table's stream (enabled by hand after the restore: restores do not carry it). */
  tableStreamArn: string;
}

export interface DataTableProps {
  stage: Stage;
  /** `-c <stage>.tableName=… -c <stage>.tableStreamArn=…` repoints the stage (docs/operations.md#backups-and-restore). */
  restoredTable?: RestoredTable | undefined;
}

const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/**
 * `-c <stage>.tableName=… -c <stage>.tableStreamArn=…` (both or neither; `context` reads a context value): the
 * restored table the stage is repointed at. Keyed by stage so that committing them to cdk.json, which every later
 * deploy of the stage needs, cannot repoint the other stage.
 */
export function restoredTableFrom(context: (key: string) => unknown, stage: Stage): RestoredTable | undefined {
  const tableName = context(`${stage}.tableName`);
  const tableStreamArn = context(`${stage}.tableStreamArn`);
  if (tableName === undefined && tableStreamArn === undefined) return undefined;
  const valid =
    typeof tableName === 'string' &&
    TABLE_NAME.test(tableName) &&
    typeof tableStreamArn === 'string' &&
    /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[A-Za-z0-9_.-]+\/stream\/[0-9T:.-]+$/.test(tableStreamArn) &&
    tableStreamArn.includes(`:table/${tableName}/stream/`);
  if (!valid)
    throw new Error(
      `-c ${stage}.tableName=<restored table> and -c ${stage}.tableStreamArn=<its stream ARN> go together, the stream being that table's (aws dynamodb describe-table --table-name <name> --query Table.LatestStreamArn)`,
    );
  return { tableName, tableStreamArn };
}

/** How long AWS Backup keeps production's daily and monthly recovery points. */
export const BACKUP_RETENTION = { daily: Duration.days(35), monthly: Duration.days(365) };

/**
 * The single table, built from the same key constants the repositories and the local bootstrap use, and the requests
 * table beside it (idempotency records and rate-limit windows: transient, so no stream and never retained). In
 * production the single table is also backed up by AWS Backup, beside its point-in-time recovery.
 */
export class DataTable extends Construct {
  readonly table: ITable;
  readonly requestsTable: Table;

  constructor(scope: Construct, id: string, props: DataTableProps) {
    super(scope, id);
    const production = props.stage === 'production';
    this.table = props.restoredTable
      ? Table.fromTableAttributes(this, 'Table', { ...props.restoredTable, grantIndexPermissions: true })
      : this.singleTable(production);
    if (production) this.backUp(this.table);
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

  private singleTable(production: boolean): Table {
    const table = new Table(this, 'Table', {
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
      table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: keys.partitionKey, type: AttributeType.STRING },
        sortKey: { name: keys.sortKey, type: AttributeType.STRING },
      });
    }
    return table;
  }

  /**
   * Daily recovery points kept 35 days and a monthly one kept a year, in a vault that outlives the stack: point-in-time
   * recovery reaches back 35 days at most, and a backup is a copy that deleting the table does not take along.
   */
  private backUp(table: ITable): void {
    const vault = new BackupVault(this, 'BackupVault', { removalPolicy: RemovalPolicy.RETAIN });
    const plan = new BackupPlan(this, 'BackupPlan', {
      backupVault: vault,
      backupPlanRules: [
        new BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: BACKUP_RETENTION.daily,
        }),
        new BackupPlanRule({
          ruleName: 'Monthly',
          scheduleExpression: Schedule.cron({ day: '1', hour: '4', minute: '0' }),
          deleteAfter: BACKUP_RETENTION.monthly,
        }),
      ],
    });
    const role = new Role(this, 'BackupRole', {
      assumedBy: new ServicePrincipal('backup.amazonaws.com'),
      description: 'AWS Backup taking recovery points of the table',
    });
    // The same role restores (docs/operations.md#backups-and-restore): the restore job needs one that may.
    plan.addSelection('Table', { resources: [BackupResource.fromArn(table.tableArn)], role, allowRestores: true });
    for (const policy of ['AWSBackupServiceRolePolicyForBackup', 'AWSBackupServiceRolePolicyForRestores'])
      Validations.of(role).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${policy}]`,
        reason: "AWS Backup's own policies for taking the table's recovery points and restoring one into a new table.",
      });
  }
}
