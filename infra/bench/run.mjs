// Runs the benchmarks named on the command line (all when none): `npm run bench -- gateway`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const wanted = process.argv.slice(2);
const here = import.meta.dirname;
for (const folder of readdirSync(here, { withFileTypes: true })) {
  if (!folder.isDirectory() || (wanted.length && !wanted.includes(folder.name))) continue;
  for (const file of readdirSync(join(here, folder.name)).filter((f) => f.endsWith('.bench.mjs'))) {
    console.log(`\n== ${folder.name}/${file}`);
    await import(join(here, folder.name, file));
  }
}
