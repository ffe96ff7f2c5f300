// `npm run scale -- [options]`: prints the capacity model's report (docs/scale.md). `--help` lists the options.
import { runScript } from '../media-target.ts';
import { scaleProgram } from './cli.ts';

await runScript(scaleProgram((text) => console.log(text)));
