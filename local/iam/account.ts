// The AWS account and region of everything that runs on this machine, in one place so that the ARNs
// made up locally agree. Any region would do for a local DynamoDB, but the SDK insists on one.
export const LOCAL_ACCOUNT = '123456789012';
export const LOCAL_REGION = 'us-east-1';
