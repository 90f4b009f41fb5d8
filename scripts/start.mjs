#!/usr/bin/env node
// `npm start`: builds what needs building and starts everything that exists so far, in the
// foreground, on loopback. Today that is the console (http://127.0.0.1:3000); the broker joins it
// here when it lands. Ctrl-C (SIGINT) or SIGTERM stops every child and waits for it to exit.
import { spawn, spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;

console.log('Building the console…');
const build = spawnSync('npm', ['run', 'build', '--workspace=@weir/console'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('The console build failed; see the output above.');
  process.exit(build.status ?? 1);
}

const children = [
  {
    name: 'console',
    child: spawn('npm', ['run', 'start', '--workspace=@weir/console'], { cwd: root, stdio: 'inherit' }),
  },
];
console.log('Weir console: http://127.0.0.1:3000');

let stopping = false;
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) if (child.exitCode === null) child.kill(signal);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

let running = children.length;
for (const { name, child } of children) {
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code}); stopping the rest.`);
    stopAll('SIGTERM');
    running -= 1;
    if (running === 0) process.exit(stopping && (signal || code === 0) ? 0 : (code ?? 1));
  });
}
