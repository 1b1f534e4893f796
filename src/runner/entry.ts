// hooks/run-hook.js: the command a harness runs (directly or through a wrapper).
import { runAndExit } from './main';

runAndExit(process.argv.slice(2), { hooksDir: __dirname });
