// Runs before each test file: credentials that can only reach the local endpoint set up by
// global-setup.ts, CloudFormation at a closed port unless a test names its stand-in, and no EC2
// instance metadata, so that a `--stage` tool without its outputs file never reaches AWS from a test.
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_ENDPOINT_URL_CLOUDFORMATION = 'http://127.0.0.1:9';
process.env.AWS_EC2_METADATA_DISABLED = 'true';
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;
