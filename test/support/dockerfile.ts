import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A Dockerfile replayed without Docker: each stage gets a folder standing for its filesystem root,
 * COPY copies what Docker would (the build context through .dockerignore, or another stage's
 * files), RUN runs the same command with `/bin/sh -c` in the stage's WORKDIR, ENV, USER and CMD are
 * recorded. The base image is not: commands run on this machine's Node and npm. Only the
 * instructions below are known; any other one fails the replay rather than being skipped.
 */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'CMD']);

/** The stages of a Dockerfile, in order; an unnamed stage is named by its index, as Docker does. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    // A trailing backslash continues the instruction; comment lines inside it are dropped.
    while (line.endsWith('\\') && i + 1 < lines.length) {
      const next = lines[++i];
      line = line.slice(0, -1) + (/^\s*#/.test(next) ? '\\' : next);
    }
    const [, word, args] = /^\s*(\S+)\s*(.*)$/.exec(line)!;
    const keyword = word.toUpperCase();
    if (!KNOWN.has(keyword)) throw new Error(`Dockerfile line ${start}: ${keyword} is not replayed`);
    if (keyword === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      const named = as?.toUpperCase() === 'AS' ? name : String(stages.length);
      stages.push({ name: named, image, instructions: [] });
      continue;
    }
    if (stages.length === 0) throw new Error(`Dockerfile line ${start}: ${keyword} before FROM`);
    stages.at(-1)!.instructions.push({ keyword, args: args.trim(), line: start });
  }
  return stages;
}

/** The `--flag=value` options at the start of an instruction's arguments, and the rest. */
export function splitFlags(args: string): { flags: Record<string, string>; rest: string[] } {
  const words = args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith('--')) {
    const [name, value = ''] = words.shift()!.slice(2).split(/=(.*)/s);
    flags[name] = value;
  }
  return { flags, rest: words };
}

/** `ENV A=1 B="two words"`, or the old `ENV A value`. */
export function parseEnv(args: string): Record<string, string> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [, name, value] = /^(\S+)\s+(.*)$/.exec(args)!;
    return { [name]: value };
  }
  const env: Record<string, string> = {};
  for (const [, name, quoted, plain] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))/g))
    env[name] = quoted ?? plain;
  return env;
}

/**
 * .dockerignore as Docker reads it: each pattern is matched against the whole path from the
 * context's root (so `*.log` is a top-level file, `**` spans folders), a folder that matches takes
 * its contents with it, `!` re-includes, and the last matching pattern wins.
 */
export class DockerIgnore {
  private readonly rules: { pattern: string; regex: RegExp; exclude: boolean }[];

  constructor(text: string) {
    this.rules = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const exclude = !line.startsWith('!');
        const pattern = path.posix.normalize((exclude ? line : line.slice(1)).replace(/^\/+/, ''));
        return { pattern, regex: DockerIgnore.toRegex(pattern), exclude };
      });
  }

  private static toRegex(pattern: string): RegExp {
    let source = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '*' && pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else if (c === '*') source += '[^/]*';
      else if (c === '?') source += '[^/]';
      else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${source}$`);
  }

  /** Whether `relative` (posix, from the context's root) stays out of the context. */
  ignores(relative: string): boolean {
    const parts = relative.split('/');
    let ignored = false;
    for (const rule of this.rules) {
      // The path itself or a folder above it.
      const matches = parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join('/')));
      if (matches) ignored = rule.exclude;
    }
    return ignored;
  }

  /** Whether some `!` pattern could bring back a path under the folder `relative`. */
  mayReinclude(relative: string): boolean {
    return this.rules.some((rule) => !rule.exclude && rule.pattern.startsWith(`${relative}/`));
  }
}

/** Copies `source` (inside the context) to `target`, leaving out what .dockerignore excludes. */
function copyFromContext(context: string, ignore: DockerIgnore, source: string, target: string): void {
  const relative = path.relative(context, source).split(path.sep).join('/');
  const stat = lstatSync(source);
  if (!stat.isDirectory()) {
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(source, target, { verbatimSymlinks: true });
    return;
  }
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source)) {
    const child = relative ? `${relative}/${entry}` : entry;
    const from = path.join(source, entry);
    if (ignore.ignores(child) && !(lstatSync(from).isDirectory() && ignore.mayReinclude(child))) continue;
    copyFromContext(context, ignore, from, path.join(target, entry));
  }
}

/** A stage's file or folder copied as COPY --from does: a folder's contents, symbolic links kept. */
function copyTree(source: string, target: string): void {
  if (!lstatSync(source).isDirectory()) {
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(source, target, { verbatimSymlinks: true });
    return;
  }
  mkdirSync(target, { recursive: true });
  execFileSync('cp', ['-a', `${source}/.`, target]);
}

export interface BuiltStage {
  name: string;
  image: string;
  /** The folder standing for the stage's `/`. */
  root: string;
  /** WORKDIR, as a folder on this machine. */
  workdir: string;
  env: Record<string, string>;
  user?: string;
  cmd?: string[];
  expose: string[];
}

export interface StepReport {
  stage: string;
  line: number;
  instruction: string;
  ms: number;
  /** Set when the step ran differently from the Dockerfile (see `ReplayOptions.substitute`). */
  note?: string;
}

export interface ReplayOptions {
  /** The build context (the folder `docker build` is given). */
  context: string;
  /** An empty folder; each stage builds in a folder of its own under it. */
  into: string;
  dockerfile?: string;
  /** Added to every RUN's environment (npm settings of this machine, for example). */
  runEnv?: Record<string, string>;
  /** A RUN done another way, with the reason; undefined runs the command itself. */
  substitute?: (
    stage: string,
    command: string,
    workdir: string,
  ) => { note: string; run: () => Promise<void> | void } | undefined;
}

export interface Replay {
  stages: Map<string, BuiltStage>;
  final: BuiltStage;
  steps: StepReport[];
}

/** Runs `/bin/sh -c command`, as a shell-form RUN does; fails with the end of its output. */
function runShell(
  command: string,
  cwd: string,
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env,
      signal,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve();
      const npmError = output.split('\n').find((line) => /^npm error (code|[a-z`])/.test(line));
      const tail = output.split('\n').slice(-40).join('\n');
      reject(
        new Error(
          `RUN ${command} failed (${signal ?? `exit ${code}`})${npmError ? `: ${npmError}` : ''}\n${tail}`,
        ),
      );
    });
  });
}

/**
 * Replays the stages the last one needs, as BuildKit does: a stage starts the stages it copies
 * from at once, so independent stages run side by side, and each stage's steps run in order.
 */
export async function replayDockerfile(options: ReplayOptions): Promise<Replay> {
  const { context, into } = options;
  const stages = parseDockerfile(
    readFileSync(path.join(context, options.dockerfile ?? 'Dockerfile'), 'utf8'),
  );
  const ignoreFile = path.join(context, '.dockerignore');
  const ignore = new DockerIgnore(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '');
  const steps: StepReport[] = [];
  const built = new Map<string, Promise<BuiltStage>>();
  const aborted = new AbortController();

  const build = (name: string): Promise<BuiltStage> => {
    if (!built.has(name)) {
      const stage = stages.find((s) => s.name === name);
      if (!stage) throw new Error(`no stage named ${name}`);
      built.set(name, buildStage(stage));
    }
    return built.get(name)!;
  };

  async function buildStage(stage: Stage): Promise<BuiltStage> {
    if (stages.some((s) => s.name === stage.image))
      throw new Error(`FROM ${stage.image}: a stage built on another stage is not replayed`);
    const root = path.join(into, stage.name);
    mkdirSync(root, { recursive: true });
    const result: BuiltStage = {
      name: stage.name,
      image: stage.image,
      root,
      workdir: root,
      env: {},
      expose: [],
    };
    const inStage = (absolute: string) => {
      if (!absolute.startsWith('/')) throw new Error(`${absolute}: an absolute path was expected`);
      return path.join(root, absolute);
    };
    const sources = stage.instructions
      .map((i) => (i.keyword === 'COPY' ? splitFlags(i.args).flags.from : undefined))
      .filter((from): from is string => from !== undefined);
    const dependencies = new Map(sources.map((from) => [from, build(from)]));
    // Not awaited yet: each COPY --from waits for its own stage; a failure surfaces there.
    for (const pending of dependencies.values()) pending.catch(() => undefined);

    for (const instruction of stage.instructions) {
      let started = Date.now();
      let note: string | undefined;
      const { keyword, args } = instruction;
      switch (keyword) {
        case 'WORKDIR':
          result.workdir = args.startsWith('/') ? inStage(args) : path.join(result.workdir, args);
          mkdirSync(result.workdir, { recursive: true });
          break;
        case 'ENV':
          Object.assign(result.env, parseEnv(args));
          break;
        case 'USER':
          result.user = args;
          break;
        case 'EXPOSE':
          result.expose.push(...args.split(/\s+/));
          break;
        case 'CMD':
          if (!args.startsWith('[')) throw new Error(`line ${instruction.line}: CMD in shell form`);
          result.cmd = JSON.parse(args) as string[];
          break;
        case 'RUN': {
          const substitute = options.substitute?.(stage.name, args, result.workdir);
          if (substitute) {
            note = substitute.note;
            await substitute.run();
          } else {
            const env = {
              PATH: process.env.PATH!,
              HOME: process.env.HOME!,
              ...result.env,
              ...options.runEnv,
            };
            await runShell(args, result.workdir, env, aborted.signal);
          }
          break;
        }
        case 'COPY': {
          const { flags, rest } = splitFlags(args);
          const unknown = Object.keys(flags).filter((flag) => !['from', 'chown'].includes(flag));
          if (unknown.length)
            throw new Error(`line ${instruction.line}: COPY --${unknown[0]} is not replayed`);
          const dest = rest.pop()!;
          const target = dest.startsWith('/') ? inStage(dest) : path.join(result.workdir, dest);
          const intoFolder = dest.endsWith('/') || rest.length > 1;
          const from = flags.from !== undefined ? await dependencies.get(flags.from)! : undefined;
          started = Date.now(); // not counting the wait for the stage copied from
          for (const source of rest) {
            const resolved = from ? path.join(from.root, source) : path.join(context, source);
            const relative = path.relative(context, resolved).split(path.sep).join('/');
            if (!from && (relative.startsWith('..') || (relative && ignore.ignores(relative))))
              throw new Error(`line ${instruction.line}: ${source} is not in the build context`);
            if (!existsSync(resolved)) throw new Error(`line ${instruction.line}: ${source} not found`);
            const isFolder = lstatSync(resolved).isDirectory();
            const destination = intoFolder && !isFolder ? path.join(target, path.basename(source)) : target;
            // cp rather than cpSync: node_modules holds tens of thousands of files.
            if (from) copyTree(resolved, destination);
            else copyFromContext(context, ignore, resolved, destination);
          }
          break;
        }
      }
      steps.push({
        stage: stage.name,
        line: instruction.line,
        instruction: `${keyword} ${args}`,
        ms: Date.now() - started,
        note,
      });
    }
    return result;
  }

  // Every stage the last one needs is known once it has started; the first failure stops the others.
  const final = build(stages.at(-1)!.name);
  try {
    await Promise.all(built.values());
  } catch (error) {
    aborted.abort();
    throw error;
  }
  const done = new Map<string, BuiltStage>();
  for (const [name, pending] of built) done.set(name, await pending);
  return { stages: done, final: await final, steps };
}
