// The preview of a generated test: the server's answer to `jreach.generateTest` with
// `preview: true` carries the edit and the test file's new text; it is shown as a diff against
// the test file as it is (or an empty one), with "Write Test" / "Discard". Nothing is written
// until the user chooses "Write Test"; then the edit is applied and the test opened on its method.

import * as vscode from 'vscode';
import { LanguageClient, WorkspaceEdit } from 'vscode-languageclient/node';

/** The scheme of the read-only documents the diff shows. */
const SCHEME = 'jreach-preview';

/** What `jreach.generateTest` answers when asked for a preview. */
export interface PreviewResult {
  status: 'test';
  preview: true;
  edit: WorkspaceEdit;
  content: string;
  path: string;
  method: string;
  created: boolean;
  /** The earlier test for the same statement the new one replaces. */
  replaces?: string | null;
  /** ", checked on the JVM" or why the test was not run. */
  note?: string;
}

const texts = new Map<string, string>();
let next = 0;

/** Registers the documents the diffs show. */
export function registerPreviewDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? '',
  });
}

function document(kind: string, name: string, text: string): vscode.Uri {
  next += 1;
  const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${kind}/${next}/${name}` });
  texts.set(uri.toString(), text);
  return uri;
}

/** Closes the diff editors showing `proposed`. */
async function closeDiff(proposed: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposed.toString());
  if (tabs.length > 0) {
    await vscode.window.tabGroups.close(tabs);
  }
}

/**
 * Shows the test of `result` as a diff and asks whether to write it. Returns true when it was
 * written (the caller opens it).
 */
export async function previewAndWrite(c: LanguageClient, result: PreviewResult, line: number): Promise<boolean> {
  const file = vscode.Uri.file(result.path);
  const name = file.path.split('/').pop() ?? 'Test.java';
  const original = result.created ? document('empty', name, '') : file;
  const proposed = document('proposed', name, result.content);
  const what = result.replaces
    ? `replaces ${result.replaces}, the earlier test for line ${line + 1}`
    : `test for line ${line + 1}`;
  await vscode.commands.executeCommand('vscode.diff', original, proposed, `${name}: ${what} (preview)`, {
    preview: true,
  });
  const note = result.note ? result.note.replace(/^[,;] /, '') : '';
  const question = `jreach: write ${result.method} to ${name}?${note ? ` (${note})` : ''}`;
  const choice = await vscode.window.showInformationMessage(question, 'Write Test', 'Discard');
  await closeDiff(proposed);
  texts.delete(proposed.toString());
  texts.delete(original.toString());
  if (choice !== 'Write Test') {
    void vscode.window.setStatusBarMessage(`jreach: the test for line ${line + 1} was not written`, 5000);
    return false;
  }
  if (result.created) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
  }
  const edit = await c.protocol2CodeConverter.asWorkspaceEdit(result.edit);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(
      `jreach: ${name} changed while the preview was open; nothing was written. Generate the test again.`,
    );
    return false;
  }
  const verb = result.replaces ? `replaced ${result.replaces} in` : result.created ? 'created' : 'added a test to';
  void vscode.window.showInformationMessage(`jreach: ${verb} ${name} (${result.method})${result.note ?? ''}`);
  return true;
}
