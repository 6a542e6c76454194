// What a function's composition root writes to stdout (its JSON logs and its metrics in embedded
// metric format, which Lambda sends to CloudWatch), caught for the test to check, so that it does
// not run into the test run's own output.
import { jest } from '@jest/globals';

/** Runs `action` with stdout caught; each line written is parsed as the JSON it must be. */
export async function catchStdout<T>(action: () => Promise<T>): Promise<{ result: T; lines: unknown[] }> {
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const result = await action();
    const text = write.mock.calls.map(([chunk]) => String(chunk)).join('');
    return {
      result,
      lines: text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown),
    };
  } finally {
    write.mockRestore();
  }
}
