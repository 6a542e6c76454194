// Runs before each test file: its own table name, so files never see each other's pets, and
// credentials that can only reach the local endpoint set up by global-setup.ts.
import { randomUUID } from 'node:crypto';

process.env.PETSTORE_TABLE_NAME = `petstore-test-${randomUUID()}`;
process.env.PETSTORE_CURSOR_SECRET ??= 'test-cursor-secret-of-at-least-32-characters';
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;
process.env.POWERTOOLS_LOG_LEVEL ??= 'CRITICAL';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
