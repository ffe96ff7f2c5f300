// A table stream record as Lambda hands it to the event router, from plain items.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

export const streamRecord = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  next?: Record<string, unknown>,
  previous?: Record<string, unknown>,
  eventID = 'rec-1',
): DynamoDBRecord => ({
  eventID,
  eventName,
  dynamodb: {
    ApproximateCreationDateTime: 1795348800,
    SequenceNumber: '100',
    ...(next && { NewImage: marshall(next, { removeUndefinedValues: true }) as never }),
    ...(previous && { OldImage: marshall(previous, { removeUndefinedValues: true }) as never }),
  },
});
