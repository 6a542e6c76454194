// The order CloudFormation creates a template's resources in: a resource depends on every resource it
// names through Ref, Fn::GetAtt, Fn::Sub (`${Name}`, `${Name.Attribute}`) or DependsOn, wherever the name
// sits in its properties, UpdatePolicy, CreationPolicy or Metadata, as CloudFormation reads them. A cycle
// makes CloudFormation reject the whole template before it creates anything: it is reported by name.
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';

/** The parts of a resource where CloudFormation reads references as dependencies. */
const REFERRING_PARTS = ['Properties', 'UpdatePolicy', 'CreationPolicy', 'Metadata'] as const;

/** `${Name}` or `${Name.Attribute}` in an Fn::Sub string; `${!Literal}` is text. */
const SUB_VARIABLE = /\$\{([^!}][^}]*)\}/g;

/** Every name a value refers to: resources, parameters and pseudo parameters alike. */
function namesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namesIn);
  if (typeof value !== 'object' || value === null) return [];
  const entries = Object.entries(value);
  const [[key, argument] = []] = entries;
  if (entries.length === 1 && key === 'Ref' && typeof argument === 'string') return [argument];
  if (entries.length === 1 && key === 'Fn::GetAtt') {
    const [target]: unknown[] =
      typeof argument === 'string' ? argument.split('.') : Array.isArray(argument) ? argument : [];
    return typeof target === 'string' ? [target] : namesIn(target);
  }
  if (entries.length === 1 && key === 'Fn::Sub') {
    const [text, variables = {}] = Array.isArray(argument) ? argument : [argument];
    const local = new Set(Object.keys(variables as object));
    const named = [...String(text).matchAll(SUB_VARIABLE)]
      .map((match) => match[1]?.split('.')[0] ?? '')
      .filter((name) => !local.has(name));
    return [...named, ...namesIn(variables)];
  }
  return entries.flatMap(([, inner]) => namesIn(inner));
}

/** Each resource's logical id, with the resources it depends on. */
export function resourceDependencies({ Resources }: CloudTemplate): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [logicalId, resource] of Object.entries(Resources)) {
    const named = [
      ...[resource.DependsOn ?? []].flat(),
      ...REFERRING_PARTS.flatMap((part) => namesIn(resource[part])),
    ];
    graph.set(logicalId, new Set(named.filter((name) => name in Resources)));
  }
  return graph;
}

/**
 * The groups of resources that depend on each other in a circle (Tarjan's strongly connected
 * components, with a resource that names itself as a group of one), each sorted by logical id.
 */
export function dependencyCycles(template: CloudTemplate): string[][] {
  const graph = resourceDependencies(template);
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  function visit(id: string) {
    index.set(id, index.size);
    lowLink.set(id, index.get(id) ?? 0);
    stack.push(id);
    onStack.add(id);
    for (const next of graph.get(id) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(id, Math.min(lowLink.get(id) ?? 0, lowLink.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowLink.set(id, Math.min(lowLink.get(id) ?? 0, index.get(next) ?? 0));
      }
    }
    if (lowLink.get(id) !== index.get(id)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== id);
    if (component.length > 1 || graph.get(id)?.has(id)) cycles.push(component.sort());
  }

  for (const id of graph.keys()) if (!index.has(id)) visit(id);
  return cycles;
}

/** Why CloudFormation would refuse this template's order, or undefined when it accepts it. */
export function circularDependencyProblem(template: CloudTemplate): string | undefined {
  const cycles = dependencyCycles(template);
  if (cycles.length === 0) return undefined;
  const described = cycles.map((cycle) => cycle.join(', ')).join('; and between ');
  return `CloudFormation would reject this template: circular dependency between ${described}`;
}
