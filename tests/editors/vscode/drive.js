// node drive.js <url> <shots-dir> <workspace> <user-data-dir>
// Drives code-server (with the jreach extension installed) through Playwright and Debian's Chromium.
// Each step prints OK/FAIL with its time; a failing step saves a screenshot and stops the run.
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const [url, shots, ws, userData] = process.argv.slice(2);
const source = path.join(ws, 'src/main/java/demo/Calc.java');
const testFile = path.join(ws, 'src/test/java/demo/CalcTest.java');

/** Waits until `check()` is truthy, polling every 100 ms, or throws `what` after `ms`. */
async function until(page, what, ms, check) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await page.waitForTimeout(100);
  }
}

/** The rendered editor line of the active editor that contains `text`. */
function line(page, text) {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line', { hasText: text }).first();
}

/** A point inside the statement text of the active editor's line containing `text` (the line
 *  box spans the whole editor width; 8 px per character). */
async function statementPoint(page, text) {
  const target = line(page, text);
  await target.waitFor({ timeout: 15000 });
  const b = await target.boundingBox();
  const shown = await target.innerText();
  const indent = shown.length - shown.trimStart().length;
  return { x: b.x + (indent + 3) * 8, y: b.y + b.height / 2 };
}

/** Puts the cursor on the statement `text` of the active editor and runs "jreach: Generate Test
 *  Reaching Here" from the command palette. */
async function generateFromPalette(page, text) {
  const at = await statementPoint(page, text);
  await page.mouse.click(at.x, at.y);
  await page.keyboard.press('Control+Shift+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type('jreach: Generate Test Reaching Here');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Generate Test Reaching Here' }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Clicks a menu or quick-pick row for real: VS Code ignores clicks made right after a menu opens
 *  and may cover fresh menus with a `.context-view-pointerBlock` until the mouse moves. */
async function realClick(page, locator) {
  await locator.waitFor({ timeout: 15000 });
  await page.waitForTimeout(300);
  // Code lenses are drawn again when the server refreshes them: the element found a moment ago
  // may be gone (no box) until the new one is drawn, so wait for a box.
  const b = await until(page, 'the element to be drawn', 15000, () => locator.boundingBox());
  await page.mouse.move(b.x + 5, b.y + 5);
  await page.mouse.move(b.x + 20, b.y + b.height / 2);
  await locator.click();
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  page.on('pageerror', (e) => console.log('page error:', e.message.split('\n')[0]));
  let failed = false;
  let n = 0;
  let clickedAt = 0;
  const step = async (name, fn) => {
    const t = Date.now();
    n += 1;
    try {
      await fn();
      console.log('OK  ', name, `${Date.now() - t} ms`);
    } catch (e) {
      failed = true;
      console.log('FAIL', name, `${Date.now() - t} ms:`, e.message.split('\n').slice(0, 12).join('\n'));
      const shot = path.join(shots, `fail-${String(n).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: shot }).catch(() => {});
      console.log('     screenshot:', shot);
      throw e;
    }
  };
  const t0 = Date.now();
  try {
    await step('load-workbench', async () => {
      await page.goto(url);
      await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    });

    await step('open-Calc.java', async () => {
      await page.keyboard.press('Control+P');
      await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
      await page.keyboard.type('Calc.java');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Calc.java' }).first().waitFor();
      await page.keyboard.press('Enter');
      await line(page, 'public class Calc').waitFor({ timeout: 15000 });
    });

    // The dead block `dead();` (inside `if (x > 5 && x < 3)`) is faded: a hint tagged Unnecessary
    // (the warning is on the condition).
    await step('dead-block-faded', async () => {
      const dead = page.locator('.editor-group-container.active .monaco-editor .squiggly-inline-unnecessary').first();
      await dead.waitFor({ timeout: 60000 });
      await page.screenshot({ path: path.join(shots, 'faded.png') });
    });

    await step('hover-explains', async () => {
      await page.locator('.editor-group-container.active .monaco-editor .squiggly-inline-unnecessary').first().hover();
      const hover = page.locator('.monaco-hover', { hasText: /jreach/ }).first();
      await hover.waitFor({ timeout: 15000 });
      console.log('     hover:', (await hover.innerText()).split('\n').slice(0, 3).join(' | '));
      await page.keyboard.press('Escape');
    });

    // Hover on a live statement: jreach's own hover says what it knows of it.
    await step('hover-on-a-live-statement', async () => {
      const at = await statementPoint(page, 'return 1;');
      await page.mouse.move(at.x, at.y);
      const hover = page.locator('.monaco-hover', { hasText: /no dead code found/ }).first();
      await hover.waitFor({ timeout: 15000 });
      console.log('     hover:', (await hover.innerText()).split('\n').slice(0, 2).join(' | '));
      await page.screenshot({ path: path.join(shots, 'hover-live.png') });
      await page.keyboard.press('Escape');
      await page.mouse.move(0, 0);
    });

    await step('problems-panel', async () => {
      await page.keyboard.press('Control+Shift+M');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: /always false/i }).first();
      await row.waitFor({ timeout: 15000 });
      console.log('     problem:', (await row.innerText()).replace(/\s+/g, ' ').slice(0, 160));
      await page.screenshot({ path: path.join(shots, 'problems.png') });
      await page.keyboard.press('Control+Shift+M'); // toggle the panel away again
    });

    // Right-click `return 1;` → "Generate Test Reaching Here".
    await step('context-menu-generate', async () => {
      const at = await statementPoint(page, 'return 1;');
      await page.mouse.click(at.x, at.y, { button: 'right' });
      const item = page.locator('.action-menu-item', { hasText: 'Generate Test Reaching Here' }).first();
      await item.waitFor({ timeout: 15000 });
      await page.screenshot({ path: path.join(shots, 'context-menu.png') });
      await realClick(page, item);
      clickedAt = Date.now();
    });

    // The test comes as a diff first, with Write Test / Discard; nothing is on disk before.
    await step('preview-diff-then-write', async () => {
      const tab = page.locator('.tabs-container .tab', { hasText: /CalcTest\.java: test for line 9 \(preview\)/ }).first();
      await tab.waitFor({ timeout: 90000 });
      console.log(`     preview shown ${Date.now() - clickedAt} ms after the click (cold: the JVM runner starts)`);
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'write' }).first();
      await toast.waitFor({ timeout: 15000 });
      console.log('     asks:', await toast.locator('.notification-list-item-message').first().innerText());
      await page.screenshot({ path: path.join(shots, 'preview.png') });
      if (fs.existsSync(testFile)) throw new Error('the test was written before Write Test');
      await realClick(page, toast.getByRole('button', { name: 'Write Test' }));
      await tab.waitFor({ state: 'detached', timeout: 15000 });
    });

    await step('test-file-written-and-opened', async () => {
      await until(page, `${testFile} with a @Test`, 90000, () =>
        fs.existsSync(testFile) && /@Test/.test(fs.readFileSync(testFile, 'utf8')));
      await page.locator('.tabs-container .tab', { hasText: 'CalcTest.java' }).first().waitFor({ timeout: 15000 });
      await line(page, '@Test').waitFor({ timeout: 15000 });
      // Named by what the statement does, its comment naming the line, the method and the statement.
      const written = fs.readFileSync(testFile, 'utf8');
      if (!/void classify_returns1\(\)/.test(written) || !written.includes('// Reaches line 9 in classify(int): return 1;')) {
        throw new Error(`the test is not named by its statement: ${written}`);
      }
      await page.screenshot({ path: path.join(shots, 'generated.png') });
      console.log('     wrote', testFile);
    });

    // The test's "Run" lens runs it on the JVM: Calc.java is shown beside it with the covered
    // lines marked and the target line saying it was reached.
    await step('run-lens-shows-the-line-covered', async () => {
      const lens = page.locator('.editor-group-container.active .codelens-decoration a', {
        hasText: /Run test \(reaches line 9\)/,
      }).first();
      await lens.waitFor({ timeout: 30000 });
      await realClick(page, lens);
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'passed and ran line 9 of Calc.java' }).first();
      await toast.waitFor({ timeout: 60000 });
      console.log('     says:', await toast.locator('.notification-list-item-message').first().innerText());
      const reachedNote = () => page.evaluate(() => {
        for (const el of document.querySelectorAll('.monaco-editor .view-line span')) {
          const after = getComputedStyle(el, '::after').content || '';
          if ((el.textContent || '').includes('reached by') || after.includes('reached by')) return true;
        }
        return false;
      });
      await until(page, 'the target line marked as reached in Calc.java', 15000, reachedNote);
      await page.screenshot({ path: path.join(shots, 'run-covered.png') });
      await toast.hover();
      await toast.locator('.codicon-notifications-clear').first().click().catch(() => {});
    });

    // Now a test runs `return 1;`: its hover says reachable and names the test and its call.
    await step('hover-names-the-test-that-runs-it', async () => {
      await page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first().click();
      const at = await statementPoint(page, 'return 1;');
      await page.mouse.move(at.x, at.y);
      const hover = page.locator('.monaco-hover', { hasText: /reachable/ }).first();
      await hover.waitFor({ timeout: 15000 });
      const said = await hover.innerText();
      console.log('     hover:', said.split('\n').slice(0, 2).join(' | '));
      if (!/CalcTest\.java:\d+/.test(said) || !said.includes('Calc.classify(17)')) throw new Error(`hover: ${said}`);
      await page.keyboard.press('Escape');
      await page.mouse.move(0, 0);
    });

    // The user edits the test, then asks again for the same line: the diff says the new test
    // replaces the earlier one; Discard leaves the file and the user's edit as they were.
    await step('regenerate-previews-a-replacement-then-discard', async () => {
      const before = fs.readFileSync(testFile, 'utf8');
      await page.locator('.tabs-container .tab', { hasText: /^CalcTest\.java/ }).first().click();
      const marker = line(page, '// Reaches line 9');
      await marker.waitFor({ timeout: 15000 });
      await marker.click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('int mine = 1;');
      await page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first().click();
      const at = await statementPoint(page, 'return 1;');
      await page.mouse.click(at.x, at.y, { button: 'right' });
      await realClick(page, page.locator('.action-menu-item', { hasText: 'Generate Test Reaching Here' }).first());
      clickedAt = Date.now();
      const tab = page.locator('.tabs-container .tab', { hasText: /replaces .*, the earlier test for line 9 \(preview\)/ }).first();
      await tab.waitFor({ timeout: 90000 });
      console.log(`     preview shown ${Date.now() - clickedAt} ms after the click (warm)`);
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'write' }).first();
      await toast.waitFor({ timeout: 15000 });
      await page.screenshot({ path: path.join(shots, 'preview-replace.png') });
      await realClick(page, toast.getByRole('button', { name: 'Discard' }));
      await tab.waitFor({ state: 'detached', timeout: 15000 });
      if (fs.readFileSync(testFile, 'utf8') !== before) throw new Error('the test file changed after Discard');
      await page.locator('.tabs-container .tab', { hasText: /^CalcTest\.java/ }).first().click();
      await line(page, 'int mine = 1;').waitFor({ timeout: 5000 });
    });

    // The code action, resolved lazily: Refactor… → "Generate test reaching line 12" on `return -1;`.
    await step('code-action-generate', async () => {
      const before = fs.readFileSync(testFile, 'utf8');
      const calcTab = page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first();
      await calcTab.click();
      const at = await statementPoint(page, 'return -1;');
      await page.mouse.click(at.x, at.y, { button: 'right' });
      const refactor = page.locator('.action-menu-item', { hasText: /^Refactor/ }).first();
      await realClick(page, refactor);
      const row = page.locator('.action-widget .monaco-list-row', { hasText: 'Generate test reaching line 12' }).first();
      await row.waitFor({ timeout: 15000 });
      await page.screenshot({ path: path.join(shots, 'refactor-menu.png') });
      await realClick(page, row);
      await until(page, 'a second test in CalcTest.java', 90000, () => {
        const now = fs.readFileSync(testFile, 'utf8');
        return now !== before && (now.match(/@Test/g) || []).length >= 2;
      });
      await page.screenshot({ path: path.join(shots, 'generated-2.png') });
    });

    // On the dead line the command (from the palette this time) writes nothing and says why.
    await step('dead-line-says-unreachable', async () => {
      const before = fs.readFileSync(testFile, 'utf8');
      await page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first().click();
      await generateFromPalette(page, 'dead();');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'unreachable' }).first();
      await toast.waitFor({ timeout: 60000 });
      console.log('     says:', await toast.locator('.notification-list-item-message').first().innerText());
      if (fs.readFileSync(testFile, 'utf8') !== before) throw new Error('a test was written for the dead line');
    });

    // The workspace has a JaCoCo report: the code lens on the class offers tests for what the
    // project's tests leave; its edit comes for preview and writes nothing until Apply.
    await step('coverage-lens-previews-then-applies', async () => {
      const before = fs.readFileSync(testFile, 'utf8');
      await page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first().click();
      const lens = page.locator('.editor-group-container.active .codelens-decoration a', {
        hasText: /Generate tests for the \d+ uncovered statements?/,
      }).first();
      await lens.waitFor({ timeout: 30000 });
      console.log('     lens:', await lens.innerText());
      await page.screenshot({ path: path.join(shots, 'coverage-lens.png') });
      await realClick(page, lens);
      const apply = page.getByRole('button', { name: 'Apply', exact: true }).first();
      await apply.waitFor({ timeout: 90000 });
      await page.screenshot({ path: path.join(shots, 'coverage-preview.png') });
      if (fs.readFileSync(testFile, 'utf8') !== before) throw new Error('tests were written before Apply');
      // Changes that ask for confirmation come unticked: tick the test file's, then Apply.
      const tick = page.locator('.monaco-list-row', { hasText: 'CalcTest.java' }).locator('input[type=checkbox]').first();
      await realClick(page, tick);
      await until(page, 'the change to be ticked', 10000, () => tick.isChecked());
      await page.screenshot({ path: path.join(shots, 'coverage-preview-ticked.png') });
      await realClick(page, apply);
      await until(page, 'the test for `return 0;` saved in CalcTest.java', 60000, () =>
        /Reaches line 14 in [^:]+: return 0;/.test(fs.readFileSync(testFile, 'utf8')));
      if (!fs.readFileSync(testFile, 'utf8').startsWith(before.slice(0, before.lastIndexOf('}')))) {
        throw new Error('the earlier tests were not kept');
      }
      // Then the test is opened on the new method (the extension saves first, then shows it):
      // wait for that, or it takes the keyboard from the next step.
      await page.locator('.editor-group-container.active .tab.active', { hasText: 'CalcTest.java' }).first()
        .waitFor({ timeout: 15000 });
      await page.waitForTimeout(1000);
      await page.screenshot({ path: path.join(shots, 'coverage-applied.png') });

    });

    // Settings reach the server: jreach.diagnostics.enabled off clears the warnings, on brings them back.
    // Settings files are edited in the editor (select all, type, save): code-server does not
    // notice edits made behind its back. `User`: the user settings; `Machine`: the remote
    // machine's, where machine-scoped settings such as jreach.serverPath live in a remote window.
    const settingsFile = (which) => path.join(userData, which, 'settings.json');
    const original = {
      User: JSON.parse(fs.readFileSync(settingsFile('User'), 'utf8')),
      Machine: JSON.parse(fs.readFileSync(settingsFile('Machine'), 'utf8')),
    };
    const writeSettings = async (which, patch) => {
      const file = settingsFile(which);
      const text = JSON.stringify({ ...original[which], ...patch }); // one line: no auto-indent
      // Through the commands, so that the settings are read again when saved.
      const command = which === 'User' ? 'Open User Settings (JSON)' : 'Open Remote Settings (JSON)';
      await page.keyboard.press('Control+Shift+P');
      await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
      await page.keyboard.type(`Preferences: ${command}`);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab.active', { hasText: 'settings.json' }).waitFor({ timeout: 15000 });
      await line(page, Object.keys(original[which])[0]).waitFor({ timeout: 15000 });
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(text);
      await page.keyboard.press('Control+Shift+End'); // what auto-closing added after the cursor
      await page.keyboard.press('Delete');
      await page.keyboard.press('Control+S');
      await until(page, `${file} to be saved`, 10000, () => {
        try { return JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))) === JSON.stringify(JSON.parse(text)); }
        catch { return false; }
      });
      // The editor may still count a keystroke it handled after the save as a change (it once
      // asked "Do you want to save" on close with the file already saved): save until it is clean.
      await until(page, `${file}'s editor to be clean`, 10000, async () => {
        const dirty = page.locator('.tabs-container .tab.active.dirty', { hasText: 'settings.json' });
        if ((await dirty.count()) === 0) return true;
        await page.keyboard.press('Control+S');
        return false;
      });
      // Close it again, so that the editor it covered (Calc.java) is visible.
      // A click can land while the editor is busy (a server restart's notification appearing)
      // and be lost; a dialog can ask to save: answer it and click again until the tab is gone.
      const tab = page.locator('.tabs-container .tab', { hasText: 'settings.json' }).first();
      let clicks = 0;
      await until(page, 'the settings.json tab to close', 20000, async () => {
        if ((await tab.count()) === 0) return true;
        const dialog = page.locator('.monaco-dialog-box').first();
        if (await dialog.isVisible()) {
          console.log('     dialog on close:', await dialog.innerText());
          await dialog.getByRole('button', { name: 'Save' }).first().click();
          return false;
        }
        if (clicks > 0) await page.waitForTimeout(1000); // let the last click take effect
        if ((await tab.count()) === 0) return true;
        clicks += 1;
        await tab.hover();
        await tab.locator('.codicon-close').click({ timeout: 5000 }).catch(() => {});
        return false;
      });
      if (clicks > 1) console.log(`     settings.json closed after ${clicks} clicks`);
    };
    const faded = page.locator('.monaco-editor')
      .filter({ has: page.locator('.view-line', { hasText: 'public class Calc {' }) })
      .locator('.squiggly-inline-unnecessary');
    await step('setting-diagnostics-off-on', async () => {
      await writeSettings('User', { 'jreach.diagnostics.enabled': false });
      await until(page, 'the faded block to go away', 30000, async () => (await faded.count()) === 0);
      await writeSettings('User', {});
      await until(page, 'the faded block to come back', 30000, async () => (await faded.count()) > 0);
    });

    // No test within a limit the user can raise (loops unrolled twice, running code off): the
    // message names the setting and has a button that opens it in the Settings editor.
    await step('unknown-offers-the-setting-to-open', async () => {
      await writeSettings('User', { 'jreach.unroll': 2, 'jreach.runCode': false });
      await page.locator('.tabs-container .tab', { hasText: /^Calc\.java/ }).first().click();
      await generateFromPalette(page, 'return 50;');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'jreach.unroll' }).first();
      await toast.waitFor({ timeout: 60000 });
      console.log('     says:', await toast.locator('.notification-list-item-message').first().innerText());
      await page.screenshot({ path: path.join(shots, 'unknown-open-setting.png') });
      await realClick(page, toast.getByRole('button', { name: 'Open Setting' }));
      const shown = page.locator('.settings-editor .setting-item-contents', { hasText: 'Unroll' }).first();
      await shown.waitFor({ timeout: 15000 });
      const rows = await page.locator('.settings-editor .setting-item-contents').count();
      if (rows !== 1) throw new Error(`the Settings editor shows ${rows} settings, not jreach.unroll alone`);
      await page.screenshot({ path: path.join(shots, 'setting-opened.png') });
      const tab = page.locator('.tabs-container .tab.active', { hasText: 'Settings' }).first();
      await tab.hover();
      await tab.locator('.codicon-close').click();
      await tab.waitFor({ state: 'detached', timeout: 10000 });
      await writeSettings('User', {});
    });

    // A wrong jreach.serverPath: a clear error; fixing it restarts the server.
    await step('bad-server-path-then-restart', async () => {
      await writeSettings('Machine', { 'jreach.serverPath': '/nonexistent/jreach' });
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'is not an executable file' }).first();
      await toast.waitFor({ timeout: 30000 });
      console.log('     error:', await toast.locator('.notification-list-item-message').first().innerText());
      await page.screenshot({ path: path.join(shots, 'bad-server-path.png') });
      await until(page, 'the warnings of the stopped server to go away', 15000, async () => (await faded.count()) === 0);
      await writeSettings('Machine', {});
      await until(page, 'the faded block after the restart', 60000, async () => (await faded.count()) > 0);
    });

    await step('no-settings-complaints', async () => {
      const bad = page.locator('.notifications-toasts, .notifications-center', { hasText: 'ignored invalid settings' });
      if ((await bad.count()) > 0) throw new Error(`the server rejected settings: ${await bad.first().innerText()}`);
    });
  } catch (e) {
    failed = true;
  }
  console.log(`drive: ${failed ? 'FAILED' : 'passed'} in ${Date.now() - t0} ms`);
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
