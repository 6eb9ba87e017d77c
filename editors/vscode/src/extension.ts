// The jreach extension: starts `jreach lsp` for Java files (unreachable-code warnings, "Generate
// test reaching line N" code actions), adds "Generate Test Reaching Here" to the editor's context
// menu and the command palette (the test is shown as a diff before it is written: preview.ts),
// shows what a generated test's "Run" lens covered (coverage.ts), and keeps the server's settings
// in sync with `jreach.*`.

import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  LSPErrorCodes,
  MessageActionItem,
  MessageType,
  ResponseError,
  ServerOptions,
  ShowMessageRequest,
  ShowMessageRequestParams,
  State,
} from 'vscode-languageclient/node';

import { registerCoverage, RunResult, showRun } from './coverage';
import { resolveServer } from './executable';
import { PreviewResult, previewAndWrite, registerPreviewDocuments } from './preview';
import { configuredServerPath, SECTION, serverSettings } from './settings';

/** The server's command (`workspace/executeCommand`); its argument is `{uri, line}`, line 0-based. */
const SERVER_GENERATE = 'jreach.generateTest';
/** Client-side command run after a resolved code action's edit: opens and saves the test. */
const OPEN_GENERATED = 'jreach.openGeneratedTest';
const ACTION_TITLE = /^Generate test reaching line \d+/;
/** The server's command behind the code lens "Generate tests for the N uncovered statements"
 *  (`{uri}`); its edit comes for preview, and answers with the statements' results. */
const SERVER_FILL = 'jreach.fillFile';
/** The server's command behind the "Run" lens of a generated test (`{uri, method}`): answers with
 *  the run's outcome and the lines of the code under test it covered. */
const SERVER_RUN_TEST = 'jreach.runTest';

/** What `jreach.fillFile` answers (`results`: one per uncovered statement). */
interface FillResult {
  status: 'tests' | 'none' | 'discarded' | 'unsaved' | 'stale' | 'error' | string;
  results?: { line: number; status: string; path?: string; method?: string }[];
}

/** What `jreach.generateTest` answers. */
interface GenerateResult {
  status: 'test' | 'unreachable' | 'unknown' | 'error' | string;
  path?: string;
  method?: string;
  created?: boolean;
  message?: string;
  preview?: boolean;
}

let client: LanguageClient | undefined;
let starting: Promise<LanguageClient | undefined> | undefined;
let output: vscode.LogOutputChannel;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('jreach', { log: true });
  context.subscriptions.push(
    output,
    registerPreviewDocuments(),
    registerCoverage(),
    vscode.commands.registerCommand('jreach.generateTestHere', (arg?: unknown) => generateTestHere(arg)),
    vscode.commands.registerCommand(OPEN_GENERATED, (uri: string, method?: string) =>
      openTest(vscode.Uri.parse(uri), method),
    ),
    vscode.commands.registerCommand('jreach.restartServer', async () => {
      await stopClient();
      await ensureClient();
    }),
    vscode.commands.registerCommand('jreach.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    { dispose: () => void stopClient() },
  );
  await ensureClient();
}

export function deactivate(): Thenable<void> | undefined {
  return stopClient();
}

/** The running client, starting it if needed; `undefined` (after telling the user) if it cannot run. */
function ensureClient(): Promise<LanguageClient | undefined> {
  if (client && client.state !== State.Stopped) {
    return Promise.resolve(client);
  }
  if (!starting) {
    starting = startClient().finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function startClient(): Promise<LanguageClient | undefined> {
  const resolved = resolveServer(configuredServerPath());
  if (!resolved.ok) {
    output.appendLine(resolved.message);
    void showError(resolved.message);
    return undefined;
  }
  const command = resolved.command;
  output.appendLine(`jreach: starting ${command} lsp`);
  const serverOptions: ServerOptions = {
    command,
    args: ['lsp'],
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'java' }],
    outputChannel: output,
    initializationOptions: serverSettings(),
    middleware: {
      workspace: {
        // The server asks for the section `jreach`; answer with the flat object it reads.
        configuration: async (params, token, next) => {
          const answer = await next(params, token);
          if (!Array.isArray(answer)) {
            return answer;
          }
          return params.items.map((item, i) => (item.section === SECTION ? serverSettings() : answer[i]));
        },
      },
      // After the coverage lens's tests are applied (from the preview), save and open them.
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        if (command === SERVER_FILL) {
          await openFilledTests(result as FillResult | undefined);
        } else if (command === SERVER_RUN_TEST) {
          const run = result as RunResult | undefined;
          const method = (args[0] as { method?: string } | undefined)?.method ?? 'the test';
          const source = run?.source ? client?.protocol2CodeConverter.asUri(run.source) : undefined;
          await showRun(run, method, source);
        }
        return result;
      },
      // After a "Generate test" action's edit is applied, open (and save) the test file.
      resolveCodeAction: async (item, token, next) => {
        const resolved = await next(item, token);
        if (resolved && resolved.edit && !resolved.command && ACTION_TITLE.test(resolved.title)) {
          const test = testFileOf(resolved.edit);
          if (test) {
            const method = testMethodOf(resolved.edit, test);
            resolved.command = {
              title: 'Open the generated test',
              command: OPEN_GENERATED,
              arguments: method ? [test.toString(), method] : [test.toString()],
            };
          }
        }
        return resolved;
      },
    },
    initializationFailedHandler: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      output.appendLine(`jreach: the server failed to initialize: ${message}`);
      return false;
    },
  };
  const c = new LanguageClient('jreach', 'jreach', serverOptions, clientOptions);
  client = c;
  // A message whose button names a setting (the limit that may help when no test was found):
  // the button opens that setting.
  c.onRequest(ShowMessageRequest.type, (params) => showMessageWithSettings(params));
  try {
    await c.start();
    output.appendLine(`jreach: server started (${command} lsp)`);
    return c;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    output.appendLine(`jreach: cannot start ${command} lsp: ${message}`);
    void showError(`jreach: the language server (${command} lsp) did not start: ${message}`);
    if (client === c) {
      client = undefined;
    }
    try {
      await c.dispose();
    } catch {
      // already dead
    }
    return undefined;
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(5000);
    } catch (e) {
      output?.appendLine(`jreach: stopping the server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** `window/showMessageRequest`, as the client library shows it, where a button with a `setting`
 * property opens that setting. Answers with the button chosen. */
async function showMessageWithSettings(params: ShowMessageRequestParams): Promise<MessageActionItem | null> {
  const show =
    params.type === MessageType.Error
      ? vscode.window.showErrorMessage
      : params.type === MessageType.Warning
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  const chosen = await show(params.message, ...(params.actions ?? []));
  const setting = (chosen as { setting?: unknown } | undefined)?.setting;
  if (typeof setting === 'string') {
    await vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }
  return chosen ?? null;
}

async function showError(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'jreach.serverPath');
  } else if (choice === 'Show Output') {
    output.show(true);
  }
}

async function onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
  if (!e.affectsConfiguration(SECTION)) {
    return;
  }
  if (e.affectsConfiguration(`${SECTION}.serverPath`)) {
    output.appendLine('jreach: jreach.serverPath changed, restarting the server');
    await stopClient();
    await ensureClient();
    return;
  }
  const c = client;
  if (c && c.state === State.Running) {
    const settings = serverSettings();
    output.appendLine(`jreach: settings changed: ${JSON.stringify(settings)}`);
    await c.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settings } });
  }
}

/** The Java file a generate-test edit writes to (the last one it touches). */
function testFileOf(edit: vscode.WorkspaceEdit): vscode.Uri | undefined {
  const files = edit.entries().map(([uri]) => uri).filter((uri) => uri.path.endsWith('.java'));
  return files[files.length - 1];
}

/** The name of the last test method a generate-test edit inserts into `file`. */
function testMethodOf(edit: vscode.WorkspaceEdit, file: vscode.Uri): string | undefined {
  const inserted = edit.get(file).map((e) => e.newText).join('\n');
  const names = [...inserted.matchAll(/\bvoid\s+([A-Za-z_$][\w$]*)\s*\(/g)].map((m) => m[1]);
  return names[names.length - 1];
}

/** The editor `arg` (a resource URI from a menu, or nothing from the palette) points at. */
function targetEditor(arg: unknown): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (arg instanceof vscode.Uri) {
    if (active && active.document.uri.toString() === arg.toString()) {
      return active;
    }
    return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === arg.toString());
  }
  return active;
}

async function generateTestHere(arg?: unknown): Promise<void> {
  const editor = targetEditor(arg);
  if (!editor || editor.document.languageId !== 'java') {
    void vscode.window.showWarningMessage('jreach: put the cursor on a statement of a Java method first.');
    return;
  }
  if (editor.document.uri.scheme !== 'file') {
    void vscode.window.showWarningMessage('jreach: the Java file must be saved on disk to generate a test for it.');
    return;
  }
  const c = await ensureClient();
  if (!c) {
    return;
  }
  const line = editor.selection.active.line;
  // With a preview the server answers with the edit, which is applied once the user accepts.
  const preview = vscode.workspace.getConfiguration(SECTION).get<boolean>('previewTests', true);
  const args = { uri: c.code2ProtocolConverter.asUri(editor.document.uri), line, preview };
  let result: GenerateResult | null;
  try {
    // The server reports progress (with a cancel button), applies the edit through
    // `workspace/applyEdit`, and shows why when there is no test.
    result = await c.sendRequest(ExecuteCommandRequest.type, { command: SERVER_GENERATE, arguments: [args] });
  } catch (e) {
    if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) {
      // The user pressed Cancel: what they asked for, not a failure.
      output.appendLine(`jreach: generating a test for line ${line + 1}: cancelled`);
      void vscode.window.setStatusBarMessage(`jreach: test for line ${line + 1} cancelled`, 5000);
      return;
    }
    const message = e instanceof Error ? e.message : String(e);
    output.appendLine(`jreach: generating a test for line ${line + 1} failed: ${message}`);
    void vscode.window.showErrorMessage(`jreach: generating a test for line ${line + 1} failed: ${message}`);
    return;
  }
  if (result && result.status === 'test' && result.preview && result.path) {
    if (await previewAndWrite(c, result as PreviewResult, line)) {
      await openTest(vscode.Uri.file(result.path), result.method);
    }
  } else if (result && result.status === 'test' && result.path) {
    await openTest(vscode.Uri.file(result.path), result.method);
  } else if (result) {
    output.appendLine(`jreach: no test for line ${line + 1}: ${result.message ?? result.status}`);
  }
}

/** The test files a fill added tests to, saved, the first one opened at its first new test. */
async function openFilledTests(result: FillResult | undefined): Promise<void> {
  if (!result || result.status !== 'tests' || !result.results) {
    return;
  }
  const tests = result.results.filter((r) => r.status === 'test' && r.path);
  const paths = [...new Set(tests.map((r) => r.path as string))];
  for (const p of paths.slice(1)) {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(p));
    if (doc.isDirty) {
      await doc.save();
    }
  }
  if (paths.length > 0) {
    await openTest(vscode.Uri.file(paths[0]), tests.find((r) => r.path === paths[0])?.method);
  }
}

/** Opens the test file beside the code, saves it, and shows `method` in it. */
async function openTest(uri: vscode.Uri, method?: string): Promise<void> {
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty) {
      await doc.save();
    }
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const at = method ? doc.getText().lastIndexOf(` ${method}(`) : -1;
    if (at >= 0) {
      const pos = doc.positionAt(at + 1);
      editor.selection = new vscode.Selection(pos, pos);
      editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  } catch (e) {
    void vscode.window.showErrorMessage(
      `jreach: cannot open the generated test ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
