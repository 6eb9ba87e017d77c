-- Headless end-to-end test of editors/nvim against `jreach lsp` (Neovim 0.7.2 and 0.11).
-- Environment: WS (a Maven project with src/main/java/demo/Calc.java), JREACH (the binary),
-- PLUGIN (editors/nvim). Exits non-zero on failure.
local function log(s)
  io.stdout:write(s .. "\n")
end

local ok, err = pcall(function()
  vim.opt.rtp:prepend(vim.env.PLUGIN)
  vim.cmd("filetype on")
  local jreach = require("jreach")
  jreach.setup({ cmd = { vim.env.JREACH, "lsp" }, settings = { timeout = 10 } })
  vim.cmd("edit " .. vim.env.WS .. "/src/main/java/demo/Calc.java")
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.bo.filetype == "java", "filetype is " .. vim.bo.filetype)
  assert(vim.wait(20000, function() return jreach.client(bufnr) ~= nil end, 50), "the client did not attach")
  local client = jreach.client(bufnr)
  log("CLIENT " .. client.name .. " offset_encoding=" .. tostring(client.offset_encoding))

  -- Diagnostics: the dead call on line 6 (lnum 5), code unreachable-code, tagged Unnecessary.
  local function dead_lines()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      local lsp = d.user_data and d.user_data.lsp or {}
      if (d.code or lsp.code) == "unreachable-code" then
        table.insert(out, d.lnum)
        assert(vim.tbl_contains(lsp.tags or {}, 1), "Unnecessary tag missing: " .. vim.inspect(d))
      end
    end
    return out
  end
  assert(vim.wait(60000, function() return #dead_lines() > 0 end, 50), "no unreachable-code diagnostics")
  assert(vim.deep_equal(dead_lines(), { 5 }), "dead lines: " .. vim.inspect(dead_lines()))
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    log(("DIAG line %d: %s"):format(d.lnum + 1, d.message))
  end

  -- The float of the condition's warning lists the places that contradict each other.
  local float_buf, float_win = vim.diagnostic.open_float(bufnr, { scope = "line", pos = { 4, 20 } })
  assert(float_buf, "no float on line 5")
  local float_text = table.concat(vim.api.nvim_buf_get_lines(float_buf, 0, -1, false), "\n")
  assert(float_text:find("line 5: `x > 5` holds on every path here", 1, true), "float: " .. float_text)
  vim.api.nvim_win_close(float_win, true)
  vim.api.nvim_set_current_buf(bufnr)
  -- Dead code faded: natively where Neovim has DiagnosticUnnecessary (0.9+), by the plugin before.
  if vim.fn.hlexists("DiagnosticUnnecessary") == 0 then
    local marks = vim.api.nvim_buf_get_extmarks(bufnr, vim.api.nvim_create_namespace("jreach_fade"), { 5, 0 }, { 5, -1 }, { details = true })
    assert(#marks == 1 and marks[1][4].hl_group == "Comment", "not faded: " .. vim.inspect(marks))
  end
  log("FLOAT " .. float_text:gsub("\n", " | "))

  -- Hover (`K`): on the dead line, why; on `return 1;`, that no dead code was found there.
  local function hover(line)
    local r = vim.lsp.buf_request_sync(bufnr, "textDocument/hover",
      { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = 12 } }, 10000)
    local h = r and r[client.id] and r[client.id].result
    return h and h.contents and h.contents.value or ""
  end
  assert(hover(5):find("can never run", 1, true), "hover on the dead line: " .. hover(5))
  assert(hover(8):find("no dead code found", 1, true), "hover on line 9: " .. hover(8))
  log("HOVER " .. hover(5))

  -- The code action list for line 9 (instant), as the editor's menu would ask for it.
  local enc = client.offset_encoding or "utf-16"
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 8, character = 12 }, ["end"] = { line = 8, character = 12 } },
    context = { diagnostics = {} },
  }
  local res = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000)
  local actions = res and res[client.id] and res[client.id].result or {}
  assert(#actions == 1 and actions[1].title == "Generate test reaching line 9", "actions: " .. vim.inspect(res))
  log("ACTION " .. actions[1].title)

  -- Choosing it, as vim.lsp.buf.code_action() does: resolve (which writes nothing), apply the
  -- edit, run the action's command on the client's side; the test is then saved on disk.
  local test_path = vim.env.WS .. "/src/test/java/demo/CalcTest.java"
  local resolved = vim.lsp.buf_request_sync(bufnr, "codeAction/resolve", actions[1], 120000)
  local action = resolved and resolved[client.id] and resolved[client.id].result
  assert(action and action.edit and action.command, "resolved: " .. vim.inspect(resolved))
  assert(vim.fn.isdirectory(vim.env.WS .. "/src/test") == 0, "resolving created the test folders")
  vim.lsp.util.apply_workspace_edit(action.edit, enc)
  local handler = vim.lsp.commands[action.command.command]
  assert(handler, "no client-side handler for " .. action.command.command)
  handler(action.command, { client_id = client.id, bufnr = bufnr })
  assert(vim.fn.filereadable(test_path) == 1, "the test was not saved to " .. test_path)
  local saved = table.concat(vim.fn.readfile(test_path), "\n")
  assert(saved:find("@Test", 1, true) and saved:find("@Timeout", 1, true), "saved test: " .. saved)
  log("SAVED " .. test_path)
  -- And shown, on its test method; back to the source for what follows.
  assert(vim.api.nvim_buf_get_name(0) == test_path, "the test is not shown: " .. vim.api.nvim_buf_get_name(0))
  assert(vim.api.nvim_get_current_line():find("void ", 1, true), "not on the test method: " .. vim.api.nvim_get_current_line())
  vim.cmd("wincmd p")
  assert(vim.api.nvim_get_current_buf() == bufnr, "not back in the source")

  -- An edit moves the warning: a line inserted at the top of the method body.
  vim.api.nvim_buf_set_lines(bufnr, 4, 4, false, { "        int y = 0;" })
  assert(vim.wait(60000, function() return vim.deep_equal(dead_lines(), { 6 }) end, 50),
    "the warning did not move: " .. vim.inspect(dead_lines()))
  vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, {})
  assert(vim.wait(60000, function() return vim.deep_equal(dead_lines(), { 5 }) end, 50), "the warning did not move back")
  vim.cmd("silent write")

  -- :JReachGenerateTest on `return 1;` (line 9).
  local done
  local orig = jreach.generate_test
  jreach.generate_test = function(opts)
    opts = opts or {}
    opts.on_done = function(r) done = r end
    return orig(opts)
  end
  -- Each result is told once (the server's window/showMessage; the plugin used to repeat it,
  -- and Neovim's own handler wrote it as two lines).
  local told = {}
  local notify = vim.notify
  vim.notify = function(msg, ...)
    table.insert(told, msg)
    return notify(msg, ...)
  end
  -- The user gives the generated test a line of their own (saved).
  local test_buf = vim.fn.bufnr(test_path)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(test_buf, 0, -1, false)) do
    if l:find("// Reaches line 9", 1, true) then
      vim.api.nvim_buf_set_lines(test_buf, i, i, false, { "        int mine = 1;" })
      break
    end
  end
  vim.api.nvim_buf_call(test_buf, function() vim.cmd("silent write") end)
  local function on_disk() return table.concat(vim.fn.readfile(test_path), "\n") end
  assert(on_disk():find("int mine = 1;", 1, true), "the user's line was not saved")
  -- Asked again for line 9, the plugin shows the new test in a scratch split and asks: the
  -- question (answered here) and what the split showed are recorded.
  local asked = {}
  local answer = 2 -- Discard
  local confirm = vim.fn.confirm
  vim.fn.confirm = function(msg)
    table.insert(asked, { msg = msg, name = vim.api.nvim_buf_get_name(0),
      shown = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") })
    return answer
  end
  vim.api.nvim_win_set_cursor(0, { 9, 12 })
  vim.cmd("JReachGenerateTest")
  assert(vim.wait(120000, function() return done ~= nil end, 50), "no answer to :JReachGenerateTest")
  assert(done.status == "discarded", "discard: " .. vim.inspect(done))
  assert(#asked == 1 and asked[1].msg:find("replaces", 1, true), "asked: " .. vim.inspect(asked))
  assert(asked[1].name:find("jreach://preview/CalcTest.java", 1, true), "preview buffer: " .. asked[1].name)
  assert(asked[1].shown:find("// Reaches line 9", 1, true) and not asked[1].shown:find("int mine", 1, true),
    "preview: " .. asked[1].shown)
  assert(on_disk():find("int mine = 1;", 1, true), "written after Discard: " .. on_disk())
  assert(#vim.api.nvim_tabpage_list_wins(0) == 2, "the preview split stayed: " .. #vim.api.nvim_tabpage_list_wins(0))
  log("PREVIEW " .. asked[1].msg)
  -- Once more, written: the new test replaces the user's edited one.
  done = nil
  answer = 1
  vim.cmd("JReachGenerateTest")
  assert(vim.wait(120000, function() return done ~= nil end, 50), "no answer to :JReachGenerateTest")
  vim.fn.confirm = confirm
  assert(done.status == "test", "generate: " .. vim.inspect(done))
  local _, reaches = on_disk():gsub("// Reaches line 9", "")
  assert(not on_disk():find("int mine", 1, true) and reaches == 1, "not replaced: " .. on_disk())
  -- Named by what the statement does; the comment names its method.
  assert(on_disk():find("void classify_returns1()", 1, true)
    and on_disk():find("// Reaches line 9 in classify(int): return 1;", 1, true), "names: " .. on_disk())
  log("TEST " .. done.path .. " " .. tostring(done.method))
  -- Shown on the new test method (the test file's window is reused).
  assert(vim.api.nvim_buf_get_name(0) == done.path, "the test is not shown: " .. vim.api.nvim_buf_get_name(0))
  assert(vim.api.nvim_get_current_line():find(done.method, 1, true), "not on " .. done.method .. ": " .. vim.api.nvim_get_current_line())
  assert(#vim.api.nvim_tabpage_list_wins(0) == 2, "a window per test: " .. #vim.api.nvim_tabpage_list_wins(0))

  -- The test's "▶ Run test" lens runs it on the JVM and marks what it covered in Calc.java.
  local lens_r = vim.lsp.buf_request_sync(test_buf, "textDocument/codeLens",
    { textDocument = { uri = vim.uri_from_bufnr(test_buf) } }, 10000)
  local test_lenses = lens_r and lens_r[client.id] and lens_r[client.id].result or {}
  assert(#test_lenses == 1 and test_lenses[1].command.title == "▶ Run test (reaches line 9)",
    "test lenses: " .. vim.inspect(test_lenses))
  local ran
  local orig_run = jreach.run_test
  jreach.run_test = function(opts)
    opts.on_done = function(r) ran = r end
    return orig_run(opts)
  end
  -- As vim.lsp.codelens.run() does: the client-side command of the lens.
  vim.lsp.commands[test_lenses[1].command.command](test_lenses[1].command, { bufnr = test_buf, client_id = client.id })
  assert(vim.wait(60000, function() return ran ~= nil end, 50), "no answer to the Run lens")
  assert(ran.status == "passed" and ran.reached and ran.line == 9, "run: " .. vim.inspect(ran))
  local run_marks = vim.api.nvim_buf_get_extmarks(bufnr, vim.api.nvim_create_namespace("jreach_run"), 0, -1, { details = true })
  local reached_note, covered_rows = nil, {}
  for _, m in ipairs(run_marks) do
    if m[4].virt_text then reached_note = m[2] .. ":" .. m[4].virt_text[1][1] end
    -- (Neovim 0.7 does not report an extmark's sign in its details: the rows tell.)
    if not m[4].virt_text then covered_rows[m[2]] = true end
  end
  assert(reached_note == "8:✓ reached by " .. done.method, "marks: " .. vim.inspect(run_marks))
  assert(covered_rows[8] and covered_rows[4] and not covered_rows[5], "covered: " .. vim.inspect(run_marks))
  assert(vim.api.nvim_get_current_buf() == test_buf, "the run took the cursor away from the test")
  log("RAN " .. reached_note)
  vim.cmd("wincmd p")
  -- On the dead line: a reason, no test.
  done = nil
  vim.api.nvim_win_set_cursor(0, { 6, 12 })
  vim.cmd("JReachGenerateTest")
  assert(vim.wait(120000, function() return done ~= nil end, 50), "no answer on the dead line")
  assert(done.status == "unreachable", "dead line: " .. vim.inspect(done))
  vim.wait(500)
  local function times(pat)
    local n = 0
    for _, m in ipairs(told) do
      if tostring(m):find(pat, 1, true) then n = n + 1 end
    end
    return n
  end
  -- The server's messages come through vim.notify too (one line each, no ENTER prompt).
  assert(times("passed and ran line 9") == 1 and times("line 6 can never run") == 1
    and times("replaced classify_returns1") == 1, "not told once: " .. vim.inspect(told))
  log("DEAD " .. done.message)

  -- :JReachCancel stops a generation going on: no test, said once, not as an error.
  assert(jreach.cancel() == false, "a cancel with nothing going on")
  done = nil
  told = {} -- (the wrapper above keeps recording into it)
  vim.api.nvim_win_set_cursor(0, { 9, 12 })
  vim.cmd("JReachGenerateTest")
  assert(times(":JReachCancel") == 1, "the solving message does not say how to stop: " .. vim.inspect(told))
  vim.cmd("JReachCancel")
  assert(vim.wait(30000, function() return done ~= nil end, 50), "no answer after :JReachCancel")
  assert(done.status == "cancelled", "cancel: " .. vim.inspect(done))
  vim.wait(300)
  assert(times("cancelled") == 1, "cancel told: " .. vim.inspect(told))
  vim.notify = notify
  log("CANCELLED")

  -- :checkhealth jreach: the server's version, a JDK, the attached buffers (Calc and its test).
  vim.cmd("checkhealth jreach")
  -- The report's buffer (filetype checkhealth), wherever :checkhealth put it.
  local health = ""
  vim.wait(5000, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n")
      if text:find("jreach: the server", 1, true) and text:find("Java buffers", 1, true) then
        health = text
        return true
      end
    end
    return false
  end, 50)
  assert(health:find("jreach 0.1", 1, true), "health: " .. health)
  assert(health:find("javac: ", 1, true), "health: " .. health)
  assert(health:find("the server is attached to the 2 Java buffer(s)", 1, true), "health: " .. health)
  assert(not health:find("ERROR", 1, true), "health: " .. health)
  log("HEALTH ok")
  if vim.fn.has("nvim-0.10") == 1 then vim.cmd("tabclose") else vim.cmd("bwipeout") end
  vim.api.nvim_set_current_buf(bufnr)

  -- The workspace's JaCoCo report (as `mvn jacoco:report` writes it, newer than the saved
  -- source): the tests ran the `if`s, not `return 1;` nor `return 0;`. The lens counts what the
  -- tests above do not cover (the dead call is a warning, not a gap): `return 0;`.
  vim.fn.mkdir(vim.env.WS .. "/target/site/jacoco", "p")
  local lines = ""
  for _, l in ipairs({ { 5, true }, { 6, false }, { 8, true }, { 9, false }, { 11, false }, { 15, false } }) do
    lines = lines .. ('<line nr="%d" mi="%d" ci="%d" mb="0" cb="0"/>'):format(l[1], l[2] and 0 or 3, l[2] and 3 or 0)
  end
  vim.fn.writefile({ '<?xml version="1.0" encoding="UTF-8"?><report name="demo"><package name="demo">'
    .. '<sourcefile name="Calc.java">' .. lines .. "</sourcefile></package></report>" },
    vim.env.WS .. "/target/site/jacoco/jacoco.xml")
  local function lens_titles()
    local r = vim.lsp.buf_request_sync(bufnr, "textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 10000)
    local out = {}
    for _, l in ipairs(r and r[client.id] and r[client.id].result or {}) do
      table.insert(out, l.command and l.command.title)
    end
    return out
  end
  assert(vim.deep_equal(lens_titles(), { "Generate tests for the 1 uncovered statement" }), "lens: " .. vim.inspect(lens_titles()))
  done = nil
  local orig_fill = jreach.fill_file
  jreach.fill_file = function(opts)
    opts = opts or {}
    opts.on_done = function(r) done = r end
    return orig_fill(opts)
  end
  vim.api.nvim_set_current_buf(bufnr)
  vim.cmd("JReachFillCoverage")
  assert(vim.wait(120000, function() return done ~= nil end, 50), "no answer to :JReachFillCoverage")
  assert(done.status == "tests" and done.tests == 1, "fill: " .. vim.inspect(done))
  local filled = table.concat(vim.fn.readfile(test_path), "\n")
  assert(filled:find("// Reaches line 11 in [^:]+: return 0;"), "not saved: " .. filled)
  assert(#lens_titles() == 0, "a lens after the fill: " .. vim.inspect(lens_titles()))
  log("FILLED " .. test_path)
  vim.cmd("silent! wall")
  if vim.fn.has("nvim-0.11") == 1 then client:stop() else client.stop() end
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client.id) == nil end, 50)
end)
if ok then
  vim.cmd("qall!")
else
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cquit 1")
end
