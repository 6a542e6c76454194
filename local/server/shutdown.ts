// How a local server stops: on SIGINT or SIGTERM, or once the process that started it has gone,
// it closes what runs, in order, and exits 0.
/** How often a server checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;

/**
 * Whether the process that started this one has gone: reparented (POSIX), or no longer running
 * (Windows keeps the old parent id).
 */
function parentGone(parentPid: number) {
  if (process.ppid !== parentPid) return true;
  try {
    process.kill(parentPid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * On SIGINT or SIGTERM, or once the process that started this one has gone, close what runs, in
 * order, and exit 0. A process manager stops `npm start` by signalling npm, which passes the signal
 * to the shell that runs the script but not past it: without the watch, the server would outlive
 * npm and keep its port.
 */
export function shutdownOnSignals(...closers: (() => Promise<void>)[]) {
  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string) =>
    (stopping ??= (async () => {
      console.log(`${reason}: shutting down`);
      for (const close of closers) await close();
      process.exit(0);
    })());
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  const parentPid = process.ppid;
  // A process started by init (a container's entry point) has no parent to outlive.
  if (parentPid <= 1) return;
  const watch = setInterval(() => {
    if (!parentGone(parentPid)) return;
    clearInterval(watch);
    void shutdown(`the process that started this server (pid ${parentPid}) has exited`);
  }, PARENT_CHECK_MS);
  watch.unref();
}
