// A stand-in for a running local server: it writes a server record (local/server/running-servers.ts)
// into the directory given, then stays alive until it is killed.
// Usage: node test/scripts/keys/recorded-server.ts <records dir> <url> <DynamoDB endpoint>
import { recordRunningServer } from '#local/server/running-servers.ts';

const [dir, url, dynamoDbEndpoint] = process.argv.slice(2);
if (!dir || !url || !dynamoDbEndpoint) throw new Error('usage: recorded-server.ts <dir> <url> <endpoint>');
recordRunningServer(dir, { url, dynamoDbEndpoint, tableName: 'petstore-local' });
console.log(`recorded ${url}`);
setInterval(() => undefined, 60_000);
