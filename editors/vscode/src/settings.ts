// The `jreach.*` settings as VS Code stores them, and as the server reads them.
//
// VS Code nests `jreach.diagnostics.enabled` as `{diagnostics: {enabled: true}}`; the server wants
// a flat object (`{"unroll": 1024, "timeout": 10, "checkTimeout": 2, "junit": "auto", "testRoot": "",
// "diagnostics": true}`), sent in `initializationOptions`, in `workspace/didChangeConfiguration` under a `jreach`
// section, and as the answer to `workspace/configuration` for the section `jreach`.

import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

export const SECTION = 'jreach';

/** What the server reads (see `server/crates/lsp/src/config.rs`). */
export interface ServerSettings {
  unroll: number;
  timeout: number;
  checkTimeout: number;
  junit: 'auto' | '4' | '5';
  testRoot: string;
  diagnostics: boolean;
  workspaceDiagnostics: boolean;
  runCode: boolean;
  classpath: string[];
}

export function serverSettings(scope?: vscode.ConfigurationScope): ServerSettings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const junit = String(c.get('junit', 'auto'));
  return {
    unroll: c.get<number>('unroll', 1024),
    timeout: c.get<number>('timeout', 10),
    checkTimeout: c.get<number>('diagnostics.timeout', 2),
    junit: junit === '4' || junit === '5' ? junit : 'auto',
    testRoot: c.get<string>('testRoot', '').trim(),
    diagnostics: c.get<boolean>('diagnostics.enabled', true),
    workspaceDiagnostics: c.get<boolean>('diagnostics.workspace', true),
    runCode: c.get<boolean>('runCode', true),
    classpath: c.get<string[]>('classpath', []).map((p) => p.trim()).filter((p) => p.length > 0),
  };
}

/** `jreach.serverPath` with `~` and `${workspaceFolder}` expanded; `undefined` when unset. */
export function configuredServerPath(): string | undefined {
  const raw = vscode.workspace.getConfiguration(SECTION).get<string>('serverPath', '').trim();
  if (!raw) {
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let p = raw.replace(/\$\{workspaceFolder\}/g, folder ?? '');
  if (p === '~' || p.startsWith('~/')) {
    p = path.join(os.homedir(), p.slice(1));
  }
  if (!path.isAbsolute(p) && p.includes(path.sep) && folder) {
    p = path.resolve(folder, p);
  }
  return p;
}
