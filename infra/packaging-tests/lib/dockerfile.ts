import { imagePinProblem } from './rules.js';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name?: string;
  from: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into instructions: comments dropped, backslash continuations joined, heredocs kept whole. */
export function parseDockerfile(text: string): Instruction[] {
  const lines = text.split(/\r?\n/);
  const out: Instruction[] = [];
  let buffer = '';
  let start = 0;
  let heredoc: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (heredoc !== undefined) {
      buffer += `\n${raw}`;
      if (raw.trim() === heredoc) {
        heredoc = undefined;
        push();
      }
      continue;
    }
    const trimmed = raw.trim();
    if (buffer === '' && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (buffer !== '' && trimmed.startsWith('#')) continue;
    if (buffer === '') start = i + 1;
    if (trimmed.endsWith('\\')) {
      buffer += `${trimmed.slice(0, -1)} `;
      continue;
    }
    buffer += trimmed;
    const marker = /<<-?["']?([A-Za-z_]+)["']?/.exec(buffer);
    if (marker && /^(RUN|COPY)\b/i.test(buffer)) {
      heredoc = marker[1];
      continue;
    }
    push();
  }
  if (buffer !== '') push();
  return out;

  function push(): void {
    const match = /^(\S+)\s*([\s\S]*)$/.exec(buffer.trim());
    if (match)
      out.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').trim(), line: start });
    buffer = '';
  }
}

/** Stages with ARG defaults (global ARGs before the first FROM) substituted into FROM. */
export function stages(instructions: Instruction[]): Stage[] {
  const globals = new Map<string, string>();
  const out: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'ARG' && out.length === 0) {
      const [name, value] = ins.args.split('=', 2);
      if (name) globals.set(name.trim(), (value ?? '').trim().replace(/^"|"$/g, ''));
      continue;
    }
    if (ins.keyword === 'FROM') {
      const parts = ins.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const image = (parts[0] ?? '').replace(
        /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
        (_, v: string) => globals.get(v) ?? `\${${v}}`,
      );
      const as = parts.findIndex((p) => p.toUpperCase() === 'AS');
      out.push({ from: image, name: as >= 0 ? parts[as + 1] : undefined, instructions: [] });
      continue;
    }
    out.at(-1)?.instructions.push(ins);
  }
  return out;
}

const isNodeImage = (image: string): boolean => /(^|\/)node:/.test(image);

/** Project rules for a Dockerfile; returns what is wrong (empty when it passes). */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const instructions = parseDockerfile(text);
  const all = stages(instructions);
  if (all.length === 0) return ['no FROM'];
  if (all.length < 2) problems.push('not multi-stage');
  const names = new Set(all.map((s) => s.name).filter(Boolean));
  for (const s of all) {
    // An earlier stage, or Docker's empty image (reserved, never pulled, so nothing to pin).
    if (names.has(s.from) || s.from === 'scratch') continue;
    const problem = imagePinProblem(s.from);
    if (problem) problems.push(`FROM ${problem}`);
  }
  for (const ins of instructions) {
    if (ins.keyword === 'ADD' && /(^|\s)(https?|ftp|git):\/\/|(^|\s)git@/i.test(ins.args))
      problems.push(`line ${ins.line}: ADD of a URL`);
    if (
      (ins.keyword === 'ENV' || ins.keyword === 'ARG') &&
      /(SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE_KEY|API_KEY)\w*\s*=\s*\S/i.test(ins.args)
    )
      problems.push(`line ${ins.line}: a secret baked into the image (${ins.keyword})`);
  }
  const final = all.at(-1) as Stage;
  const users = final.instructions.filter((i) => i.keyword === 'USER');
  const user = users.at(-1)?.args.split(':')[0]?.trim();
  if (!user) problems.push('final stage has no USER');
  else if (user === 'root' || user === '0') problems.push(`final stage runs as ${user}`);
  const health = final.instructions.filter((i) => i.keyword === 'HEALTHCHECK').at(-1);
  if (!health) problems.push('final stage has no HEALTHCHECK');
  else if (/^NONE\b/i.test(health.args)) problems.push('HEALTHCHECK NONE');
  // A Node runtime must not carry dev dependencies: every stage it copies from installs with --omit=dev.
  const finalBase = names.has(final.from) ? (all.find((s) => s.name === final.from)?.from ?? '') : final.from;
  if (isNodeImage(finalBase)) {
    for (const ins of final.instructions) {
      if (/^(npm|yarn|pnpm)\s/.test(ins.args) || /\bnpm (ci|install)\b/.test(ins.args))
        if (ins.keyword === 'RUN' && !/--omit=dev|--production/.test(ins.args))
          problems.push(`line ${ins.line}: installs dev dependencies in the final stage`);
    }
    const sources = final.instructions
      .filter((i) => i.keyword === 'COPY')
      .map((i) => /--from=(\S+)/.exec(i.args)?.[1])
      .filter((x): x is string => Boolean(x));
    for (const src of sources) {
      const stage = all.find((s) => s.name === src);
      for (const ins of stage?.instructions ?? [])
        if (
          ins.keyword === 'RUN' &&
          /\bnpm (ci|install)\b/.test(ins.args) &&
          !/--omit=dev|--production/.test(ins.args)
        )
          problems.push(`stage ${src} (copied into the runtime) installs dev dependencies`);
    }
  }
  return problems;
}
