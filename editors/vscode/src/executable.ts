// Finding the `jreach` executable: `jreach.serverPath`, else `jreach` on the PATH.

import * as fs from 'fs';
import * as path from 'path';

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `PATH` that can be run, or `undefined`. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter((d) => d);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').concat(['']) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

export type Resolved = { ok: true; command: string } | { ok: false; message: string };

/** The command to start, or why there is none (a message for the user). */
export function resolveServer(configured: string | undefined): Resolved {
  if (configured) {
    if (path.isAbsolute(configured) || configured.includes('/') || configured.includes('\\')) {
      return isExecutable(configured)
        ? { ok: true, command: configured }
        : { ok: false, message: `jreach: the server path "${configured}" (setting jreach.serverPath) is not an executable file.` };
    }
    const found = onPath(configured);
    return found
      ? { ok: true, command: found }
      : { ok: false, message: `jreach: "${configured}" (setting jreach.serverPath) was not found on the PATH.` };
  }
  const found = onPath('jreach');
  return found
    ? { ok: true, command: found }
    : {
        ok: false,
        message:
          'jreach: cannot find the `jreach` executable on the PATH. Install it (`cargo install --path server/crates/cli` ' +
          'in a jreach checkout) or set jreach.serverPath to the binary (e.g. target/release/jreach).',
      };
}
