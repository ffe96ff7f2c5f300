// CloudFormation custom resource: on every deploy whose data changed, writes the committed reference data sets and
// the image catalogue's search index (bundled into this function) into the stage's table. Deleting the resource
// leaves the data with the table.
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import { getDeps } from '../../shared/deps.ts';
import { seedImageCatalogue } from '../../shared/domain/images/seed.ts';
import { seedReferenceData } from '../../shared/domain/reference/seed.ts';
import { traceIfSampled } from '../../shared/observability.ts';

export async function handler(event: CloudFormationCustomResourceEvent, fetchFn: typeof fetch = fetch): Promise<void> {
  const deps = getDeps();
  await traceIfSampled();
  const identity = {
    PhysicalResourceId: `reference-data-${deps.config.tableName}`,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
  let response: CloudFormationCustomResourceResponse;
  try {
    const results = event.RequestType === 'Delete' ? [] : await loadAll(deps);
    deps.log.info('reference data loaded', { results });
    response = {
      ...identity,
      Status: 'SUCCESS',
      Data: {
        Changed: results
          .filter((r) => r.changed)
          .map((r) => r.set)
          .join(','),
      },
    };
  } catch (error) {
    deps.log.error('reference data load failed', { error });
    response = {
      ...identity,
      Status: 'FAILED',
      Reason: `Loading reference data failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  // CloudFormation waits for this PUT to the pre-signed URL; without it the stack hangs for an hour.
  const body = JSON.stringify(response);
  await fetchFn(event.ResponseURL, {
    method: 'PUT',
    body,
    headers: { 'content-type': '', 'content-length': String(Buffer.byteLength(body)) },
  });
}

/** The reference sets, then the catalogue's search index (versioned by content, so an unchanged catalogue is one read). */
async function loadAll(deps: ReturnType<typeof getDeps>): Promise<{ set: string; changed: boolean }[]> {
  const sets = await seedReferenceData(deps.ddb, deps.config.tableName, deps.now());
  const catalogue = await seedImageCatalogue(deps.ddb, deps.config.tableName);
  return [...sets, { set: 'images', changed: catalogue.changed }];
}
