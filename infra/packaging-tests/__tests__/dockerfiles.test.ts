import { describe, expect, it } from '@jest/globals';
import { dockerfileProblems, parseDockerfile, stages } from '../lib/dockerfile.js';
import { listFiles, readText } from '../lib/repo.js';

const dockerfiles = listFiles('infra/docker', (p) => /(^|\/)([^/]*\.)?Dockerfile$/.test(p));

const GOOD = `# syntax=docker/dockerfile:1.7
ARG NODE_IMAGE=node:24.21.0-bookworm-slim
FROM \${NODE_IMAGE} AS build
RUN npm ci \\
 && npm run build
FROM \${NODE_IMAGE} AS prune
COPY --from=build /src /src
RUN npm ci --omit=dev
FROM \${NODE_IMAGE}
COPY --from=prune /src /app
USER 1000:1000
HEALTHCHECK CMD ["node", "-e", "process.exit(0)"]
CMD ["node", "main.js"]
`;

describe('the Dockerfile rules catch bad files (fixtures)', () => {
  it('parse continuations, comments and ARG defaults in FROM', () => {
    const ins = parseDockerfile(GOOD);
    expect(ins.map((i) => i.keyword)).toEqual([
      'ARG',
      'FROM',
      'RUN',
      'FROM',
      'COPY',
      'RUN',
      'FROM',
      'COPY',
      'USER',
      'HEALTHCHECK',
      'CMD',
    ]);
    expect(ins[2]?.args).toBe('npm ci  && npm run build');
    expect(stages(ins).map((s) => s.from)).toEqual(Array(3).fill('node:24.21.0-bookworm-slim'));
  });

  it('accept the good fixture', () => {
    expect(dockerfileProblems(GOOD)).toEqual([]);
  });

  it('reject an unpinned base image', () => {
    expect(dockerfileProblems(GOOD.replace('node:24.21.0-bookworm-slim', 'node:24'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/FROM node:24: tag is not an exact version/)]),
    );
    expect(dockerfileProblems(GOOD.replace('node:24.21.0-bookworm-slim', 'node:latest')).length).toBe(3);
    expect(
      dockerfileProblems(GOOD.replace('ARG NODE_IMAGE=node:24.21.0-bookworm-slim', 'ARG NODE_IMAGE')).length,
    ).toBe(3);
  });

  it("take Docker's empty image as a base without a tag, and no other image without one", () => {
    const withMaps = GOOD.replace(
      '\nCOPY --from=prune',
      '\nFROM scratch AS extras\nCOPY --from=build /maps /\nFROM node:24.21.0-bookworm-slim\nCOPY --from=prune',
    );
    expect(withMaps).toContain('FROM scratch AS extras');
    expect(dockerfileProblems(withMaps)).toEqual([]);
    expect(dockerfileProblems(withMaps.replace('FROM scratch', 'FROM scratchy'))).toEqual([
      'FROM scratchy: no tag',
    ]);
  });

  it('reject a root or missing USER', () => {
    expect(dockerfileProblems(GOOD.replace('USER 1000:1000', 'USER root'))).toEqual([
      'final stage runs as root',
    ]);
    expect(dockerfileProblems(GOOD.replace('USER 1000:1000\n', ''))).toEqual(['final stage has no USER']);
  });

  it('reject ADD of a URL', () => {
    const bad = GOOD.replace('USER 1000:1000', 'ADD https://example.com/tool.tgz /opt/\nUSER 1000:1000');
    expect(dockerfileProblems(bad)).toEqual([expect.stringMatching(/ADD of a URL/)]);
  });

  it('reject a missing HEALTHCHECK, dev dependencies in the runtime and baked secrets', () => {
    expect(dockerfileProblems(GOOD.replace(/HEALTHCHECK.*\n/, ''))).toEqual([
      'final stage has no HEALTHCHECK',
    ]);
    expect(dockerfileProblems(GOOD.replace('npm ci --omit=dev', 'npm ci'))).toEqual([
      'stage prune (copied into the runtime) installs dev dependencies',
    ]);
    expect(
      dockerfileProblems(GOOD.replace('USER 1000:1000', 'ENV STRIPE_SECRET_KEY=sk_live_1\nUSER 1000:1000')),
    ).toEqual([expect.stringMatching(/secret baked/)]);
  });

  it('reject a single-stage build', () => {
    expect(dockerfileProblems('FROM node:24.21.0-bookworm-slim\nUSER 1000\nHEALTHCHECK CMD true\n')).toEqual([
      'not multi-stage',
    ]);
  });
});

describe('the Dockerfiles in infra/docker', () => {
  it('exist for the Node deployables and the front ends', () => {
    expect(dockerfiles).toEqual(['infra/docker/frontend.Dockerfile', 'infra/docker/node-app.Dockerfile']);
  });

  it.each(dockerfiles)(
    '%s: pinned bases, non-root USER, HEALTHCHECK, no ADD of URLs, no dev dependencies',
    (path) => {
      expect(dockerfileProblems(readText(path))).toEqual([]);
    },
  );

  it("keep the front ends' source maps out of the image they serve, in a stage of their own", () => {
    const all = stages(parseDockerfile(readText('infra/docker/frontend.Dockerfile')));
    const build = all.find((s) => s.name === 'build');
    const run = build?.instructions
      .filter((i) => i.keyword === 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(run).toMatch(/find \. -name '\*\.map' -exec cp --parents \{\} \/maps\/ \\; -delete/);
    // find answers 0 even when a copy failed (the map then stays): the step fails if any is left.
    expect(run).toContain(`test -z "$(find . -name '*.map' -print -quit)"`);
    expect(all.find((s) => s.name === 'sourcemaps')?.from).toBe('scratch');
    expect(all.at(-1)?.instructions.some((i) => i.keyword === 'COPY' && i.args.includes('/maps'))).toBe(
      false,
    );
  });

  it('start the Node apps the way the runtime contract says', () => {
    const final = stages(parseDockerfile(readText('infra/docker/node-app.Dockerfile'))).at(-1);
    const cmd = final?.instructions.find((i) => i.keyword === 'CMD')?.args;
    expect(JSON.parse(cmd ?? 'null')).toEqual([
      'node',
      '--import',
      '@portico/platform/telemetry',
      'dist/main.js',
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Dockerfile variable, not a template
    expect(final?.instructions.find((i) => i.keyword === 'WORKDIR')?.args).toBe('/app/${APP_DIR}');
  });

  it('build with their own .dockerignore that keeps node_modules and secrets out of the context', () => {
    for (const path of dockerfiles) {
      const ignore = readText(`${path}.dockerignore`).split('\n');
      for (const entry of ['**/node_modules', '**/.env', '**/*.env', '.git']) expect(ignore).toContain(entry);
    }
  });
});
