import { parse } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: compose files are read loosely
export type ComposeService = Record<string, any>;

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export const parseCompose = (text: string): ComposeFile => parse(text, { merge: true }) as ComposeFile;

/** Environment of a compose service as a map (both the list and the map forms). */
export function composeEnv(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(
      env.map((e: string) => {
        const i = e.indexOf('=');
        return i < 0 ? [e, ''] : [e.slice(0, i), e.slice(i + 1)];
      }),
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v == null ? '' : String(v)]));
}

/** Container ports a compose service exposes (expose and ports). */
export function composePorts(service: ComposeService): number[] {
  const out: number[] = [];
  for (const e of service.expose ?? []) out.push(Number(String(e).split('/')[0]));
  for (const p of service.ports ?? []) {
    const text = typeof p === 'object' ? String(p.target) : String(p);
    out.push(Number(text.split('/')[0]?.split(':').at(-1)));
  }
  return out;
}
