// Loaded into the local server by the soak (`node --import`): answers each `rss` message on the IPC
// channel with the process's resident set size, so the soak reads it alike on every platform.
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage.rss() });
});
// The channel alone must not keep the server running once it has closed.
process.channel?.unref();
