import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import illustrations from '../../../data/images.json' with { type: 'json' };
import photos from '../../../data/photos.json' with { type: 'json' };
import { handler } from '../../../events/deploy/load-reference-data.ts';

const deployEvent = (RequestType: 'Create' | 'Update' | 'Delete') =>
  ({
    RequestType,
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:loader',
    ResponseURL: 'https://cloudformation-response.example/signed',
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/pets-test/1',
    RequestId: 'req-1',
    LogicalResourceId: 'ReferenceDataLoad',
    ResourceType: 'AWS::CloudFormation::CustomResource',
    ResourceProperties: { ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:loader' },
    ...(RequestType !== 'Create' && { PhysicalResourceId: 'reference-data-table' }),
  }) as CloudFormationCustomResourceEvent;

/** Runs the loader and returns what it PUT to CloudFormation's response URL. */
async function deploy(RequestType: 'Create' | 'Update' | 'Delete') {
  const responses: { url: string; body: Record<string, unknown> }[] = [];
  const respond = (async (url: string, init: RequestInit) => {
    responses.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(null, { status: 200 });
  }) as typeof fetch;
  await handler(deployEvent(RequestType), respond);
  expect(responses).toHaveLength(1);
  return responses[0]!.body;
}

describe('the deploy-time data loader', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  beforeEach(() => {
    ddb.reset();
    ddb.on(GetCommand).resolves({});
    ddb.on(BatchWriteCommand).resolves({});
    ddb.on(PutCommand).resolves({});
  });

  it('indexes the image catalogue for search on a new stage, with the reference sets', async () => {
    const response = await deploy('Create');

    expect(response).toMatchObject({ Status: 'SUCCESS', RequestId: 'req-1' });
    expect(String((response.Data as { Changed: string }).Changed).split(',')).toContain('images');
    const pointer = ddb
      .commandCalls(PutCommand)
      .map((call) => call.args[0].input.Item!)
      .find((item) => item.type === 'ImageCatalogue');
    // the illustrations and the real photos, which end their facets' lists (search shows them first)
    expect(pointer).toMatchObject({
      images: illustrations.length + photos.length,
      photos: { 'breed:rottweiler': 1, 'species:cat': 21, all: 29 },
    });
    const imageItems = ddb
      .commandCalls(BatchWriteCommand)
      .flatMap((call) => Object.values(call.args[0].input.RequestItems!).flat())
      .filter((request) => request.PutRequest?.Item?.type === 'Image');
    expect(imageItems).toHaveLength(illustrations.length + photos.length);
  });

  it('reports a failed load to CloudFormation instead of leaving the stack waiting', async () => {
    ddb.on(BatchWriteCommand).rejects(new Error('ProvisionedThroughputExceededException'));

    const response = await deploy('Update');

    expect(response).toMatchObject({ Status: 'FAILED', PhysicalResourceId: expect.stringContaining('reference-data') });
    expect(response.Reason).toContain('ProvisionedThroughputExceededException');
  });

  it('writes nothing when the stack deletes the resource', async () => {
    expect(await deploy('Delete')).toMatchObject({ Status: 'SUCCESS' });
    expect(ddb.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });
});
