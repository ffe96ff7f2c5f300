import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AWS_LIMITS, type LimitName, limitBreaches, measureStack } from '../../infra/limits.ts';
import { scratchDirs } from '../support/scratch-dirs.ts';

const scratch = scratchDirs('limits');

type Resources = Record<string, { Type: string; Properties?: object }>;

/**
 * A cloud assembly as the CDK writes it: the stack's template, a nested template named by its asset, the assets
 * manifest, and a folder per built asset (files of the given sizes, sparse, so a 200 MB layer costs no disk).
 */
function assembly(parent: Resources, nested: Resources, assets: Record<string, number[]> = {}): string {
  const dir = scratch('assembly');
  const nestedHash = 'a'.repeat(64);
  const files: Record<string, { source: { path: string; packaging: string } }> = {
    [nestedHash]: { source: { path: 'S.nested.template.json', packaging: 'file' } },
  };
  for (const [hash, sizes] of Object.entries(assets)) {
    mkdirSync(join(dir, `asset.${hash}`));
    sizes.forEach((size, i) => {
      const file = join(dir, `asset.${hash}`, `f${i}`);
      writeFileSync(file, '');
      truncateSync(file, size);
    });
    files[hash] = { source: { path: `asset.${hash}`, packaging: 'zip' } };
  }
  const nestedStack = {
    Type: 'AWS::CloudFormation::Stack',
    Properties: {
      TemplateURL: { 'Fn::Join': ['', ['https://s3/', `${nestedHash}.json`]] },
      Parameters: { layerParam: { Ref: 'Layer' } },
    },
  };
  writeFileSync(join(dir, 'S.template.json'), JSON.stringify({ Resources: { ...parent, Nested: nestedStack } }));
  writeFileSync(join(dir, 'S.nested.template.json'), JSON.stringify({ Resources: nested }));
  writeFileSync(join(dir, 'S.assets.json'), JSON.stringify({ files }));
  return dir;
}

const MB = 1024 * 1024;
const layer = (hash: string) => ({
  Type: 'AWS::Lambda::LayerVersion',
  Properties: { Content: { S3Key: `${hash}.zip` } },
});
const fn = (properties: object) => ({ Type: 'AWS::Lambda::Function', Properties: properties });

/** The one limit a stack breaks, and its message. */
function breachOf(dir: string): { names: LimitName[]; messages: string[] } {
  const figures = measureStack(dir, 'S');
  const messages = limitBreaches(figures);
  const names = (Object.keys(AWS_LIMITS) as LimitName[]).filter((n) => figures.largest[n].value > AWS_LIMITS[n].max);
  return { names, messages };
}

describe('limits checked on the synthesized assembly', () => {
  it('passes a stack within every limit and measures code plus layers through a nested stack', () => {
    const dir = assembly(
      { Layer: layer('b'.repeat(64)) },
      { Fn: fn({ Code: { S3Key: `${'c'.repeat(64)}.zip` }, Layers: [{ Ref: 'layerParam' }] }) },
      {
        ['b'.repeat(64)]: [100 * MB],
        ['c'.repeat(64)]: [MB],
      },
    );
    const figures = measureStack(dir, 'S');
    expect(limitBreaches(figures)).toEqual([]);
    expect(figures.largest.unzippedBytes).toEqual({ value: 101 * MB, where: 'function Fn' });
    expect(figures.templates.map((t) => t.file)).toEqual(['S.template.json', 'S.nested.template.json']);
  });

  it('fails a function whose code plus layers exceed 250 MB unzipped', () => {
    const dir = assembly(
      { Layer: layer('b'.repeat(64)) },
      { Fn: fn({ Code: { S3Key: `${'c'.repeat(64)}.zip` }, Layers: [{ Ref: 'layerParam' }] }) },
      {
        ['b'.repeat(64)]: [200 * MB, 45 * MB],
        ['c'.repeat(64)]: [6 * MB],
      },
    );
    const { names, messages } = breachOf(dir);
    expect(names).toEqual(['unzippedBytes']);
    expect(messages[0]).toContain('function Fn');
    expect(messages[0]).toContain('Lambda function and layers unzipped, 250 MB');
    expect(messages[0]).toContain('https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html');
  });

  it('fails a template of more than 500 resources', () => {
    const many = Object.fromEntries(
      Array.from({ length: 501 }, (_, i) => [`Handle${i}`, { Type: 'AWS::CloudFormation::WaitConditionHandle' }]),
    );
    const { names, messages } = breachOf(assembly({}, many));
    expect(names).toEqual(['templateResources']);
    expect(messages[0]).toContain('S.nested.template.json: 501, above');
    expect(messages[0]).toContain('cloudformation-limits.html');
  });

  it('fails a template larger than 1 MB', () => {
    const big = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `Topic${i}`,
        { Type: 'AWS::SNS::Topic', Properties: { DisplayName: 'x'.repeat(4000) } },
      ]),
    );
    const { names, messages } = breachOf(assembly(big, {}));
    expect(names).toEqual(['templateBytes']);
    expect(messages[0]).toContain('CloudFormation template body in S3, 1 MB');
  });

  it('fails a role whose inline policies (its own and attached AWS::IAM::Policy) exceed 10,240 characters', () => {
    const statements = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: `arn:aws:s3:::bucket-${i}/*`,
      }));
    const role = {
      Type: 'AWS::IAM::Role',
      Properties: { Policies: [{ PolicyName: 'own', PolicyDocument: { Statement: statements(70) } }] },
    };
    const attached = {
      Type: 'AWS::IAM::Policy',
      Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: statements(70) } },
    };
    // Each alone is within the limit; the role carries both.
    expect(breachOf(assembly({ Role: role }, {})).names).toEqual([]);
    const { names, messages } = breachOf(assembly({ Role: role, Attached: attached }, {}));
    expect(names).toEqual(['rolePolicyChars']);
    expect(messages[0]).toContain('role Role');
    expect(messages[0]).toContain('https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html');
  });

  it('fails a function whose environment exceeds 4 KB, counting each reference as the name it deploys as', () => {
    const references = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`TABLE_${i}`, { Ref: 'Table' }]));
    // 30 references are about 750 characters as written, but up to 128 each once deployed.
    const { names, messages } = breachOf(
      assembly({}, { Fn: fn({ Code: { ZipFile: 'exports.handler=()=>{}' }, Environment: { Variables: references } }) }),
    );
    expect(names).toEqual(['environmentBytes']);
    expect(messages[0]).toContain('Lambda environment variables, 4 KB');
  });
});
