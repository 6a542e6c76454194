// dynalite ships no types; this is the part of its API the project uses.
declare module 'dynalite' {
  import type { Server } from 'node:http';
  type Options = {
    path?: string | undefined;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  };
  export default function dynalite(options?: Options): Server;
}
