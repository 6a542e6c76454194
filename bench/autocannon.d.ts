// autocannon ships no types; this is the part of its API the benchmark uses.
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Sent in turn on each connection, instead of the one request of `url`. */
    requests?: { method?: string; path: string }[];
  };
  /** Latencies in milliseconds, request rates per second. */
  type Histogram = { average: number; p50: number; p99: number; max: number; total: number };
  type Result = {
    latency: Histogram;
    requests: Histogram;
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
