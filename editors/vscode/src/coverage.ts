// What a run of a generated test covered, shown in the code it tests: the server's answer to
// `jreach.runTest` (the "Run" lens on a jreach test) names the file, the target statement's line
// and the lines the run covered. The covered lines get a green background, the target line a
// note ("✓ reached by OrderTest.total_returnsMinus1"); the file is shown beside the test. The marks
// stay until the file is edited (its lines may move) or another run replaces them.

import * as vscode from 'vscode';

/** What `jreach.runTest` answers. */
export interface RunResult {
  status: 'passed' | 'failed' | 'error' | string;
  message: string;
  source?: string;
  line?: number;
  reached: boolean;
  covered: number[];
}

interface Shown {
  covered: number[];
  line?: number;
  label: string;
  reached: boolean;
}

const shown = new Map<string, Shown>();
let coveredType: vscode.TextEditorDecorationType | undefined;
let targetType: vscode.TextEditorDecorationType | undefined;

/** Creates the decorations and keeps them on the editors of the files they belong to. */
export function registerCoverage(): vscode.Disposable {
  coveredType = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  targetType = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
    after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground') },
  });
  return vscode.Disposable.from(
    coveredType,
    targetType,
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach(decorate)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (e.contentChanges.length > 0 && shown.delete(key)) {
        vscode.window.visibleTextEditors.filter((ed) => ed.document.uri.toString() === key).forEach(decorate);
      }
    }),
  );
}

function decorate(editor: vscode.TextEditor): void {
  if (!coveredType || !targetType) {
    return;
  }
  const s = shown.get(editor.document.uri.toString());
  const lines = (s?.covered ?? []).filter((l) => l !== s?.line && l >= 1 && l <= editor.document.lineCount);
  editor.setDecorations(
    coveredType,
    lines.map((l) => editor.document.lineAt(l - 1).range),
  );
  const target =
    s && s.line && s.line <= editor.document.lineCount
      ? [
          {
            range: editor.document.lineAt(s.line - 1).range,
            renderOptions: { after: { contentText: s.reached ? `✓ reached by ${s.label}` : `✗ not reached by ${s.label}` } },
          },
        ]
      : [];
  editor.setDecorations(targetType, target);
}

/** Shows `result` (a run of `label`) in the code it tests, beside the test. */
export async function showRun(result: RunResult | undefined, label: string, source: vscode.Uri | undefined): Promise<void> {
  if (!result || !source || result.status === 'error') {
    return;
  }
  shown.set(source.toString(), { covered: result.covered, line: result.line, label, reached: result.reached });
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === source.toString());
  const editor =
    visible ??
    (await vscode.window.showTextDocument(source, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true }));
  decorate(editor);
  if (result.line) {
    const at = new vscode.Range(result.line - 1, 0, result.line - 1, 0);
    editor.revealRange(at, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
