// A deployed stage's CloudFormation outputs (ApiUrl, TableName, MediaBucketName, MediaUrl), read with the caller's AWS
// credentials: how the operator scripts find a stage without being told its names.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { Stage } from '../infra/stage.ts';

export async function stackOutputs(stage: Stage): Promise<Record<string, string | undefined>> {
  const stackName = `PetApi-${stage}`;
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}

/** One output that must be there; the error names the stack and the output. */
export async function stackOutput(stage: Stage, key: string): Promise<string> {
  const value = (await stackOutputs(stage))[key];
  if (!value) throw new Error(`stack PetApi-${stage} has no ${key} output`);
  return value;
}
