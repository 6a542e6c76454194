// How a local server stops: on SIGINT or SIGTERM, or once a process that launched it has gone (its
// parent, and npm when the parent is the shell npm ran the script in), it closes what runs, in order,
// and exits 0.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How often a server checks that the processes that launched it are still there. */
const PARENT_CHECK_MS = 500;

/** Whether a process is running: `kill 0` tests it without signalling. */
function running(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** A process's command line and parent, where the system tells (Linux: /proc; macOS: ps). */
function processInfo(pid: number): { command: string; parentPid: number } | undefined {
  try {
    if (process.platform === 'linux') {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      // The fields after the command name, which may hold spaces and parentheses: state, then ppid.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return { command, parentPid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
    }
    const [parentPid = '', ...command] = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], {
      encoding: 'utf8',
    })
      .trim()
      .split(/\s+/);
    return { command: command.join(' '), parentPid: Number(parentPid) };
  } catch {
    return undefined;
  }
}

/**
 * The processes whose end ends this server: its parent; and when that is the shell npm ran the
 * script in (`sh -c <script>`, which Debian's and Ubuntu's dash keeps between them), npm too. npm
 * passes a SIGINT to that shell only, which holds it until its child exits; a process manager then
 * kills npm (pm2 after its kill_timeout), and the server must not outlive it.
 */
function launchers(): number[] {
  const parentPid = process.ppid;
  // A process started by init (a container's entry point) has no parent to outlive.
  if (parentPid <= 1) return [];
  const script = process.env.npm_lifecycle_script;
  const parent = script && process.platform !== 'win32' ? processInfo(parentPid) : undefined;
  const shellOfNpm =
    parent !== undefined && / -c /.test(parent.command) && parent.command.includes(script ?? '');
  return shellOfNpm && parent.parentPid > 1 ? [parentPid, parent.parentPid] : [parentPid];
}

/**
 * Whether a launcher has gone: no longer running, or (for the parent) reparented on POSIX, since
 * Windows keeps the old parent id.
 */
const launcherGone = (pid: number, parentPid: number) =>
  (pid === parentPid && process.ppid !== parentPid) || !running(pid);

/**
 * On SIGINT or SIGTERM, or once a process that launched this one has gone, close what runs, in
 * order, and exit 0.
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
  const watched = launchers();
  if (watched.length === 0) return;
  const watch = setInterval(() => {
    const gone = watched.find((pid) => launcherGone(pid, parentPid));
    if (gone === undefined) return;
    clearInterval(watch);
    void shutdown(`the process that started this server (pid ${gone}) has exited`);
  }, PARENT_CHECK_MS);
  watch.unref();
}
