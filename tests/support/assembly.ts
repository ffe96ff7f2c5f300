// Infra assertions read the whole stage, not one template: the route areas live in nested stacks (infra/constructs/
// api-routes.ts). These helpers merge a stack's nested templates into one view with each nested-stack parameter
// replaced by the value the parent passes, so a function's `Role` in a nested stack reads `{Fn::GetAtt: [role, Arn]}`
// as it would in one template and the least-privilege assertions keep following references across the split.
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { bindParameters } from '../../infra/limits.ts';

type Json = Parameters<typeof bindParameters>[0];
interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, Json> }>;
  [section: string]: unknown;
}

/** The nested stacks directly under `stack` (not those of other stacks, not grandchildren). */
export const nestedStacksOf = (stack: Stack): NestedStack[] =>
  stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);

/** One template holding the resources of `stack` and, recursively, of its nested stacks, references bound. */
export function flattenedTemplate(stack: Stack): Template {
  const merged = structuredClone(Template.fromStack(stack).toJSON()) as TemplateJson;
  for (const nested of nestedStacksOf(stack)) {
    const nestedResource = merged.Resources[stack.getLogicalId(nested.nestedStackResource!)]!;
    const parameters = (nestedResource.Properties?.Parameters ?? {}) as Record<string, Json>;
    const inner = flattenedTemplate(nested).toJSON() as TemplateJson;
    for (const [id, resource] of Object.entries(inner.Resources)) {
      if (id in merged.Resources)
        throw new Error(`logical id ${id} of ${nested.node.path} is also in ${stack.node.path}`);
      merged.Resources[id] = bindParameters(
        resource as unknown as Json,
        parameters,
      ) as TemplateJson['Resources'][string];
    }
  }
  return Template.fromJSON(merged);
}
