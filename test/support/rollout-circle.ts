// The circle that once made every deployment fail, put back into a copy of a stage's template: a
// method's API Gateway alarm, which a rollout watches, naming stage v1 by a Ref to the stage resource
// (alarm, deployment group, alias UpdatePolicy, methods, deployment, stage), for the tests that show it
// is refused.
import type { CloudTemplate } from '#local/cloud-assembly/template.ts';

/** Puts the Ref back, in place; the logical ids of the alarm and the stage it now names. */
export function putStageRefBackOnApiAlarm(template: CloudTemplate): { alarmId: string; stageId: string } {
  const idOf = (matches: (properties: Record<string, unknown>, type: string) => boolean) => {
    const found = Object.entries(template.Resources).find(([, { Type, Properties = {} }]) =>
      matches(Properties, Type),
    );
    if (!found) throw new Error("The template has no method's API Gateway alarm or no API stage");
    return found[0];
  };
  const stageId = idOf((_properties, type) => type === 'AWS::ApiGateway::Stage');
  const alarmId = idOf(
    (properties) =>
      properties.Namespace === 'AWS/ApiGateway' && JSON.stringify(properties).includes('"Method"'),
  );
  const alarm = template.Resources[alarmId]?.Properties as { Dimensions: { Name: string; Value: unknown }[] };
  for (const dimension of alarm.Dimensions)
    if (dimension.Name === 'Stage') dimension.Value = { Ref: stageId };
  return { alarmId, stageId };
}
