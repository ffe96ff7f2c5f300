// AWS limits that a deploy meets only after synth passes, checked on the synthesized cloud assembly instead: each
// template's size and resource count, each role's inline policies, each function's environment and each function's
// code plus layers unzipped. infra/app.ts fails the synth on a breach; the infra tests run the same checks.
import { lstatSync, openSync, readdirSync, readFileSync, readSync, closeSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

const CFN_QUOTAS = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html';
const IAM_QUOTAS = 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html';
const LAMBDA_QUOTAS = 'https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html';

export const AWS_LIMITS = {
  templateBytes: { max: 1_048_576, name: 'CloudFormation template body in S3, 1 MB', page: CFN_QUOTAS },
  templateResources: { max: 500, name: 'CloudFormation resources per template, 500', page: CFN_QUOTAS },
  rolePolicyChars: { max: 10_240, name: 'IAM inline policies of a role, 10,240 characters', page: IAM_QUOTAS },
  environmentBytes: { max: 4_096, name: 'Lambda environment variables, 4 KB', page: LAMBDA_QUOTAS },
  unzippedBytes: {
    max: 262_144_000,
    name: 'Lambda function and layers unzipped, 250 MB',
    page: LAMBDA_QUOTAS,
  },
} as const;
export type LimitName = keyof typeof AWS_LIMITS;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Resource = { Type: string; Properties?: Record<string, Json> };
interface TemplateJson {
  Resources?: Record<string, Resource>;
}

/** One figure against its limit: the largest value of the stack and where it is. */
interface Figure {
  value: number;
  where: string;
}
interface StackFigures {
  stack: string;
  templates: { file: string; bytes: number; resources: number }[];
  largest: Record<LimitName, Figure>;
  /** Functions whose code was not built in this synth (bundling skipped): their layers are counted, their code not. */
  unbuiltCode: number;
  /** Layers published by others (an ARN, not an asset of this app): not measurable offline, counted as 0 bytes. */
  outsideLayers: number;
}

/** Replaces `{Ref: <parameter>}` by the parent's value for that parameter, everywhere in `value` (also the infra tests' merged view). */
export function bindParameters(value: Json, parameters: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => bindParameters(item, parameters));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && typeof value.Ref === 'string' && value.Ref in parameters) return parameters[value.Ref]!;
  return Object.fromEntries(keys.map((key) => [key, bindParameters(value[key]!, parameters)]));
}

/**
 * What a resolved intrinsic may add: physical names and ARNs CloudFormation generates stay below this, so a string
 * built from them is never counted shorter than it deploys.
 */
const INTRINSIC_CHARS = 128;

/** The length of `value` as JSON once deployed, each intrinsic function counted as INTRINSIC_CHARS characters. */
function deployedLength(value: Json): number {
  if (Array.isArray(value)) return 2 + value.reduce((sum: number, item) => sum + deployedLength(item) + 1, 0);
  if (value === null || typeof value !== 'object') return Buffer.byteLength(JSON.stringify(value));
  const keys = Object.keys(value);
  const [key] = keys;
  if (keys.length === 1 && key !== undefined && (key === 'Ref' || key.startsWith('Fn::'))) {
    const argument = value[key]!;
    if (key === 'Fn::Join' && Array.isArray(argument) && Array.isArray(argument[1]))
      return (
        2 +
        argument[1].reduce((sum: number, part) => sum + (typeof part === 'string' ? part.length : INTRINSIC_CHARS), 0)
      );
    if (key === 'Fn::Sub' && typeof argument === 'string')
      return 2 + argument.replace(/\$\{[^}]*\}/g, 'x'.repeat(INTRINSIC_CHARS)).length;
    return INTRINSIC_CHARS;
  }
  return keys.reduce((sum, k) => sum + Buffer.byteLength(JSON.stringify(k)) + 2 + deployedLength(value[k]!), 1);
}

/** Bytes of every file under `dir` (symbolic links not followed: the zip CDK builds stores them as links). */
function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += lstatSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/** The uncompressed size of a zip's entries, read from its central directory. */
function unzippedBytes(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const size = lstatSync(file).size;
    const tail = Buffer.alloc(Math.min(size, 65_557));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) throw new Error(`${file} is not a zip`);
    const entries = tail.readUInt16LE(end + 10);
    const directory = Buffer.alloc(tail.readUInt32LE(end + 12));
    readSync(fd, directory, 0, directory.length, tail.readUInt32LE(end + 16));
    let total = 0;
    for (let i = 0, at = 0; i < entries; i++) {
      const uncompressed = directory.readUInt32LE(at + 24);
      if (uncompressed === 0xffffffff) throw new Error(`${file} is a ZIP64 archive; measure it another way`);
      total += uncompressed;
      at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return total;
  } finally {
    closeSync(fd);
  }
}

interface AssetSource {
  path: string;
  packaging: 'zip' | 'file';
}

/** Unzipped bytes of the asset an S3Key names, or undefined when it was not built into the assembly. */
function assetBytes(dir: string, assets: Record<string, AssetSource>, s3Key: Json): number | undefined {
  const hash = typeof s3Key === 'string' ? s3Key.replace(/\.zip$/, '') : undefined;
  const source = hash === undefined ? undefined : assets[hash];
  // A source outside the assembly is the project folder itself: the synth skipped bundling this function.
  if (source === undefined || isAbsolute(source.path)) return undefined;
  const path = join(dir, source.path);
  return source.packaging === 'zip' ? directoryBytes(path) : unzippedBytes(path);
}

interface Flattened {
  templates: StackFigures['templates'];
  resources: Record<string, Resource>;
}

/** The stack's resources and, recursively, its nested stacks', each nested parameter bound to the parent's value. */
function flatten(dir: string, file: string, assetFiles: Record<string, AssetSource>): Flattened {
  const text = readFileSync(join(dir, file), 'utf8');
  const resources = { ...((JSON.parse(text) as TemplateJson).Resources ?? {}) };
  const templates = [{ file, bytes: Buffer.byteLength(text), resources: Object.keys(resources).length }];
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const hash = JSON.stringify(resource.Properties?.TemplateURL).match(/([0-9a-f]{64})\.json/)?.[1];
    const source = hash === undefined ? undefined : assetFiles[hash];
    if (source === undefined) throw new Error(`nested stack ${id} of ${file} has no template in the assembly`);
    const inner = flatten(dir, source.path, assetFiles);
    templates.push(...inner.templates);
    const parameters = (resource.Properties?.Parameters ?? {}) as Record<string, Json>;
    for (const [innerId, innerResource] of Object.entries(inner.resources))
      resources[innerId] = bindParameters(innerResource as unknown as Json, parameters) as unknown as Resource;
  }
  return { templates, resources };
}

const refOf = (value: Json): string | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.Ref === 'string'
    ? value.Ref
    : undefined;

const largestOf = (figures: Figure[]): Figure =>
  figures.reduce((a, b) => (b.value > a.value ? b : a), { value: 0, where: 'none' });

/** Each role's inline policies: its own Policies plus every AWS::IAM::Policy attached to it, whitespace not counted. */
function rolePolicyFigures(resources: Record<string, Resource>): Figure[] {
  const chars = new Map<string, number>();
  const add = (role: string, document: Json) => chars.set(role, (chars.get(role) ?? 0) + deployedLength(document));
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type === 'AWS::IAM::Role')
      for (const policy of (resource.Properties?.Policies ?? []) as Record<string, Json>[])
        add(id, policy.PolicyDocument ?? null);
    if (resource.Type === 'AWS::IAM::Policy')
      for (const role of (resource.Properties?.Roles ?? []) as Json[])
        add(refOf(role) ?? JSON.stringify(role), resource.Properties?.PolicyDocument ?? null);
  }
  return [...chars].map(([role, value]) => ({ value, where: `role ${role}` }));
}

/** Figures of the stack whose template is `templateFile` in the assembly at `dir`. */
export function measureStack(dir: string, stack: string): StackFigures {
  const manifest = JSON.parse(readFileSync(join(dir, `${stack}.assets.json`), 'utf8')) as {
    files: Record<string, { source: AssetSource }>;
  };
  const assets = Object.fromEntries(Object.entries(manifest.files).map(([hash, f]) => [hash, f.source]));
  const { templates, resources } = flatten(dir, `${stack}.template.json`, assets);
  const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
  let unbuiltCode = 0;
  const outsideLayers = new Set<string>();
  const unzipped = functions.map(([id, fn]) => {
    const code = (fn.Properties?.Code ?? {}) as Record<string, Json>;
    const codeBytes =
      typeof code.ZipFile === 'string' ? Buffer.byteLength(code.ZipFile) : assetBytes(dir, assets, code.S3Key ?? null);
    if (codeBytes === undefined) unbuiltCode++;
    const layerBytes = ((fn.Properties?.Layers ?? []) as Json[]).map((layer) => {
      const content = resources[refOf(layer) ?? '']?.Properties?.Content as Record<string, Json> | undefined;
      const bytes = content === undefined ? undefined : assetBytes(dir, assets, content.S3Key ?? null);
      if (bytes === undefined) outsideLayers.add(JSON.stringify(layer));
      return bytes ?? 0;
    });
    return { value: (codeBytes ?? 0) + layerBytes.reduce((a, b) => a + b, 0), where: `function ${id}` };
  });
  const environments = functions.map(([id, fn]) => {
    const variables = ((fn.Properties?.Environment ?? {}) as Record<string, Json>).Variables;
    return { value: variables === undefined ? 0 : deployedLength(variables), where: `function ${id}` };
  });
  return {
    stack,
    templates,
    unbuiltCode,
    outsideLayers: outsideLayers.size,
    largest: {
      templateBytes: largestOf(templates.map((t) => ({ value: t.bytes, where: t.file }))),
      templateResources: largestOf(templates.map((t) => ({ value: t.resources, where: t.file }))),
      rolePolicyChars: largestOf(rolePolicyFigures(resources)),
      environmentBytes: largestOf(environments),
      unzippedBytes: largestOf(unzipped),
    },
  };
}

/** One message per limit the stack breaks (its largest figure over the limit), naming the limit and its page. */
export function limitBreaches(figures: StackFigures): string[] {
  return (Object.keys(AWS_LIMITS) as LimitName[]).flatMap((name) => {
    const limit = AWS_LIMITS[name];
    const { value, where } = figures.largest[name];
    return value > limit.max
      ? [`${figures.stack}: ${where}: ${value}, above the limit "${limit.name}" (${limit.max}; ${limit.page})`]
      : [];
  });
}

/** A line per stack for the synth's output: each figure beside its limit. */
export function describeFigures(figures: StackFigures): string {
  const parts = (Object.keys(AWS_LIMITS) as LimitName[]).map(
    (name) => `${name} ${figures.largest[name].value}/${AWS_LIMITS[name].max} (${figures.largest[name].where})`,
  );
  const built = figures.unbuiltCode > 0 ? `; code of ${figures.unbuiltCode} functions not built` : '';
  const outside = figures.outsideLayers > 0 ? `; layers of others, not measured: ${figures.outsideLayers}` : '';
  return `${figures.stack}: ${figures.templates.length} templates, ${parts.join(', ')}${built}${outside}`;
}
