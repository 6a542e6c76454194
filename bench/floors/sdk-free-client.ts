// What a floor bundles in place of @aws-sdk/client-dynamodb (processes/bundles.ts aliases it): the
// client and the commands the baselines use, each command's input signed and posted by hand, so that
// a function's floor is its baseline's own code with the SDK taken away.
import { dynamoDbRequest } from '#bench/floors/dynamodb-request.ts';

class Command {
  readonly operation: string;
  readonly input: object;
  constructor(operation: string, input: object) {
    this.operation = operation;
    this.input = input;
  }
}

export class GetItemCommand extends Command {
  constructor(input: object) {
    super('GetItem', input);
  }
}

export class PutItemCommand extends Command {
  constructor(input: object) {
    super('PutItem', input);
  }
}

export class QueryCommand extends Command {
  constructor(input: object) {
    super('Query', input);
  }
}

export class DynamoDBClient {
  send<T>({ operation, input }: Command): Promise<T> {
    return dynamoDbRequest<T>(operation, input);
  }
}
