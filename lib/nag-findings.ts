// How cdk-nag names the resource of a finding, so that an acknowledgement names exactly that one and
// no other: a pseudo parameter as <AWS::Name>, a literal as it is.
export const asNagShowsIt = (arn: string) => arn.replace(/\$\{Token\[AWS\.(\w+)\.\d+\]\}/g, '<AWS::$1>');
