// `loom <command>`: run, and the reviewer commands added by later modules.
import { join } from 'node:path';
import { runAndExit } from '../runner/main';

const USAGE = `usage: loom <command> [options]
commands:
  run <hook-id> | run --event <Event>   run hooks like a harness would (stdin: payload)
`;

function main(argv: string[]): void {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'run':
      runAndExit(rest, { hooksDir: join(__dirname, '..', 'hooks') });
      return;
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE);
      process.exitCode = cmd === undefined ? 1 : 0;
      return;
    default:
      process.stderr.write(`loom: unknown command "${cmd}"\n${USAGE}`);
      process.exitCode = 1;
  }
}

main(process.argv.slice(2));
