// Declared access (shared/access.ts) → IAM grants and the environment that goes with them. The one place a right is
// granted: ApiRoutes calls it for each route's role, Consumers for each consumer's, so a route and a consumer that
// declare the same right get the same statements.
import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { type QueueId, queues as queueTable } from '../../events/consumers.ts';
import type { Access, MediaAccess, ObjectRight } from '../../shared/access.ts';
import { grantTable } from './lambda-defaults.ts';

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];

/** DynamoDB actions of the named table rights; no Scan for anyone. */
export const TABLE_ACTIONS = {
  read: TABLE_READ,
  write: [...TABLE_READ, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
} as const;

/**
 * Requests-table actions (shared/http/guards.ts): read = the quota route's windows (all of an account's in one
 * BatchGetItem, so never GetItem); write = the pipeline's guards (rate windows: UpdateItem; idempotency records:
 * PutItem to claim, UpdateItem to store, DeleteItem to give back, and GetItem, which Powertools falls back to when a
 * refused claim does not return the record).
 */
export const REQUESTS_TABLE_ACTIONS = {
  read: ['dynamodb:BatchGetItem'],
  write: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
} as const;

/** Object actions per right; `list` is a bucket action, granted apart with a prefix condition. */
const OBJECT_ACTIONS: Record<Exclude<ObjectRight, 'list'>, string[]> = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject'],
  multipart: ['s3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
  delete: ['s3:DeleteObject'],
};

/** What the stage holds that a declaration can name; a construct passes the parts its functions may declare. */
export interface GrantTargets {
  table: ITable;
  mediaBucket: IBucket;
  mediaBaseUrl: string;
  webhookSecretsKey: IKey;
  queues: Partial<Record<QueueId, IQueue>>;
  requestsTable?: ITable;
  tokenSecret?: ISecret;
  /** Bedrock model the functions declaring `visionModel` invoke. */
  analysisModelId?: string;
  /** Bedrock image model of the functions declaring `imageModel`. */
  portraitModelId?: string;
  /** The SES-verified sender of owner mails, e.g. `Pet API <no-reply@pets.example>`. */
  mailFrom?: string;
}

/** The one foundation model a function may invoke (Converse and InvokeModel both need bedrock:InvokeModel on it). */
export const bedrockModelArn = (stack: Stack, modelId: string) =>
  `arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`;

export class AccessGrants {
  constructor(private readonly targets: GrantTargets) {}

  /** Grants `access` to `role`: nothing beyond what it declares. */
  grant(role: Role, access: Access<QueueId>): void {
    const { targets } = this;
    if (typeof access.table === 'string') grantTable(role, targets.table, TABLE_ACTIONS[access.table], true);
    else if (access.table)
      grantTable(
        role,
        targets.table,
        access.table.map((action) => `dynamodb:${action}`),
        false,
      );
    if (access.requests)
      grantTable(role, need(targets.requestsTable, 'requests'), REQUESTS_TABLE_ACTIONS[access.requests], false);
    if (access.tokenSecret) need(targets.tokenSecret, 'tokenSecret').grantRead(role);
    if (access.media) this.grantMedia(role, access.media);
    // Only Encrypt: grantEncrypt would add ReEncrypt* and GenerateDataKey*, which no route needs.
    if (access.webhookSecrets === 'encrypt')
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['kms:Encrypt'], resources: [targets.webhookSecretsKey.keyArn] }),
      );
    if (access.webhookSecrets === 'decrypt') targets.webhookSecretsKey.grantDecrypt(role);
    for (const queue of access.sendsTo ?? []) need(targets.queues[queue], `queue ${queue}`).grantSendMessages(role);
    if (access.visionModel) this.grantModel(role, need(targets.analysisModelId, 'visionModel'));
    if (access.imageModel) this.grantModel(role, need(targets.portraitModelId, 'imageModel'));
    if (access.labels) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['rekognition:DetectLabels'], resources: ['*'] }));
      Validations.of(role).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason: 'rekognition:DetectLabels supports no resource-level permissions.',
      });
    }
    if (access.ownerMail) {
      const senderDomain = /@([^>\s]+)/.exec(need(targets.mailFrom, 'ownerMail'))?.[1] ?? 'example.com';
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [Stack.of(role).formatArn({ service: 'ses', resource: 'identity', resourceName: senderDomain })],
        }),
      );
    }
  }

  /** The environment that lets a function use what it declares (names, ARNs, URLs, providers). */
  environment(access: Access<QueueId>): Record<string, string> {
    const { targets } = this;
    const environment: Record<string, string> = {
      TABLE_NAME: targets.table.tableName,
      MEDIA_BASE_URL: targets.mediaBaseUrl,
    };
    if (access.requests) environment.REQUESTS_TABLE_NAME = need(targets.requestsTable, 'requests').tableName;
    if (access.tokenSecret) environment.TOKEN_SECRET_ARN = need(targets.tokenSecret, 'tokenSecret').secretArn;
    if (access.media) environment.MEDIA_BUCKET = targets.mediaBucket.bucketName;
    if (access.webhookSecrets) environment.WEBHOOK_KMS_KEY_ID = targets.webhookSecretsKey.keyArn;
    for (const queue of access.sendsTo ?? [])
      environment[queueTable[queue].env] = need(targets.queues[queue], `queue ${queue}`).queueUrl;
    if (access.visionModel) {
      environment.ANALYSIS_PROVIDER = 'bedrock';
      environment.ANALYSIS_MODEL = need(targets.analysisModelId, 'visionModel');
    }
    if (access.imageModel) environment.PORTRAIT_MODEL_ID = need(targets.portraitModelId, 'imageModel');
    if (access.labels) environment.LABELS_PROVIDER = 'rekognition';
    if (access.ownerMail) environment.OWNER_MAIL_FROM = need(targets.mailFrom, 'ownerMail');
    return environment;
  }

  private grantModel(role: Role, modelId: string): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [bedrockModelArn(Stack.of(role), modelId)] }),
    );
  }

  /**
   * One statement per set of object actions, naming the prefixes that share it; listing is limited to its prefixes
   * by condition. Object keys are created at run time (per account and item), so each grant stops at its prefix.
   */
  private grantMedia(role: Role, media: MediaAccess): void {
    const bucket = this.targets.mediaBucket;
    const prefixesByActions = new Map<string, string[]>();
    for (const [prefix, rights] of Object.entries(media)) {
      const actions = rights.flatMap((right) => (right === 'list' ? [] : OBJECT_ACTIONS[right]));
      if (actions.length === 0) continue;
      const key = actions.join(',');
      prefixesByActions.set(key, [...(prefixesByActions.get(key) ?? []), prefix]);
    }
    for (const [actions, prefixes] of prefixesByActions)
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: actions.split(','),
          resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
        }),
      );
    const listed = Object.entries(media).filter(([, rights]) => rights.includes('list'));
    if (listed.length > 0)
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': listed.map(([prefix]) => `${prefix}*`) } },
        }),
      );
    const bucketArn = `<${Stack.of(role).getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>`;
    for (const prefix of [...prefixesByActions.values()].flat())
      Validations.of(role).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::${bucketArn}/${prefix}*]`,
        reason: 'Object keys are per account and item; the role reaches only the prefixes its function declares.',
      });
  }
}

/** A declared right whose target this construct was not given is a wiring mistake: fail the synth. */
function need<T>(target: T | undefined, what: string): T {
  if (target === undefined) throw new Error(`access to ${what} is declared, but no target for it was given`);
  return target;
}
