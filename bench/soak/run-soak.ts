import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { soakConfig, soakEnvironment } from './soak-config';

// `npm run soak:cluster -- --rounds N --minutes M --faults a,b`: checks the settings, then runs the
// soak (cluster.soak.ts) in Vitest with them in its environment, and exits as it did.

const config = soakConfig(process.argv.slice(2));
const vitestConfig = fileURLToPath(new URL('./vitest.config.ts', import.meta.url));
const child = spawn('npx', ['vitest', 'run', '--config', vitestConfig], {
  stdio: 'inherit',
  env: { ...process.env, ...soakEnvironment(config) },
});
child.on('exit', (code) => process.exit(code ?? 1));
