// Hand-made DynamoDB requests and API requests for the capacity model's tests: a GetItem or a Query
// of one small pet, a pet's Put with its status index entry, and an API request made of them.
import type { RecordedRequest } from '#bench/capacity/model.ts';
import type { TraceEntry } from '#bench/dynamodb/capacity-units.ts';

const PET_BYTES = 150;

export const getItem = (partition: string, consistent = true): TraceEntry => ({
  operation: 'GetItem',
  partition,
  consistent,
  itemBytes: [PET_BYTES],
  indexWrites: [],
});

/** A Query of the status index that finds one pet (eventually consistent, as the index is read). */
export const queryIndex = (partition: string): TraceEntry => ({
  operation: 'Query',
  partition,
  index: 'byStatus',
  consistent: false,
  itemBytes: [PET_BYTES],
  indexWrites: [],
});

export const putPet = (partition: string, statusPartition: string): TraceEntry => ({
  operation: 'PutItem',
  partition,
  consistent: true,
  itemBytes: [],
  write: { before: 0, after: PET_BYTES, failed: false },
  indexWrites: [{ index: 'byStatus', partition: statusPartition, bytes: PET_BYTES }],
});

export const recorded = (
  operation: string,
  entries: TraceEntry[],
  extra: Partial<RecordedRequest> = {},
): RecordedRequest => ({ operation, count: 1, entries, ...extra });
