-- jreach for Neovim (0.7 through 0.11): starts `jreach lsp` for Java buffers and adds
-- :JReachGenerateTest, which shows a JUnit test reaching the statement on the cursor line in a
-- scratch split, writes it once you confirm (replacing an earlier jreach test for the statement)
-- and shows it (or says why there is none: unreachable, unknown); :JReachRunTest (and the
-- "▶ Run test" code lens on a generated test), which runs it on the JVM and marks the lines of the
-- code under test it covered; and :JReachFillCoverage, which writes tests for every statement of
-- the file that the workspace's JaCoCo report says no test runs (also the code lens "Generate
-- tests for the N uncovered statements"). :JReachCancel stops a generation or a fill;
-- :checkhealth jreach says what is missing.
--
--   require("jreach").setup({
--     cmd = { "jreach", "lsp" },
--     settings = { timeout = 10, unroll = 1024, junit = "auto", testRoot = nil, diagnostics = true, runCode = true },
--     preview = true,
--   })
--   vim.keymap.set("n", "<leader>jt", "<cmd>JReachGenerateTest<cr>", { desc = "jreach: generate test" })

local M = {}

local defaults = {
  -- The server command.
  cmd = { "jreach", "lsp" },
  -- Server settings: unroll, timeout and checkTimeout (seconds), junit ("auto" | "4" | "5"), testRoot, diagnostics.
  settings = {},
  filetypes = { "java" },
  -- Files that mark a project root (the nearest one above the file wins; else its folder).
  root_markers = { "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", ".git" },
  -- Save the test file after :JReachGenerateTest or the code action changed it.
  save = true,
  -- Show the test after writing it: the command that opens it ("split", "vsplit", "edit",
  -- "tabedit"), or false to leave the windows as they are. A window already showing it is used.
  open = "split",
  -- Show a generated test in a scratch split and ask before writing it (false: write at once,
  -- beside any earlier test for the statement).
  preview = true,
  -- Refresh code lenses (the coverage gaps' "Generate tests for the N uncovered statements") on
  -- entering and saving a Java buffer; run one with vim.lsp.codelens.run().
  codelens = true,
  name = "jreach",
}

M.config = vim.deepcopy(defaults)

local clients_by_root = {} -- Neovim 0.7: one client per root, attached by hand

local function has(v)
  return vim.fn.has("nvim-" .. v) == 1
end

local function notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO)
end

--- The project root of `fname`: the nearest folder above it holding a root marker.
local function root_of(fname)
  local dir = vim.fn.fnamemodify(fname, ":p:h")
  local uv = vim.loop
  while dir and dir ~= "" do
    for _, marker in ipairs(M.config.root_markers) do
      if uv.fs_stat(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      break
    end
    dir = parent
  end
  return vim.fn.fnamemodify(fname, ":p:h")
end

--- The jreach client attached to `bufnr`, if any.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local clients
  if has("0.10") then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = M.config.name })
  else
    clients = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  for _, c in ipairs(clients) do
    if c.name == M.config.name then
      return c
    end
  end
  return nil
end

--- A diagnostic's message, followed for jreach's by its related places ("line 5: `x > 5` holds
--- on every path here"): the conditions that contradict each other, which Neovim's float leaves
--- out.
function M.format_diagnostic(d)
  local lsp = d.user_data and d.user_data.lsp or {}
  local msg = d.message
  if d.source ~= "jreach" and lsp.source ~= "jreach" then
    return msg
  end
  for _, r in ipairs(lsp.relatedInformation or {}) do
    msg = msg .. ("\n  line %d: %s"):format(r.location.range.start.line + 1, r.message)
  end
  return msg
end

local fade_ns = vim.api.nvim_create_namespace("jreach_fade")

--- Fades the dead code of `bufnr` (Comment's colours) where Neovim does not highlight
--- diagnostics tagged Unnecessary itself (before 0.9, no DiagnosticUnnecessary).
local function fade(bufnr, ns)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, fade_ns, 0, -1)
  for _, d in ipairs(vim.diagnostic.get(bufnr, { namespace = ns })) do
    local lsp = d.user_data and d.user_data.lsp or {}
    if vim.tbl_contains(lsp.tags or {}, 1) then
      pcall(vim.api.nvim_buf_set_extmark, bufnr, fade_ns, d.lnum, d.col, {
        end_row = d.end_lnum or d.lnum,
        end_col = d.end_col or d.col,
        hl_group = "Comment",
        priority = 200,
      })
    end
  end
end

--- On attach: the float shows related places, and dead code is faded on Neovim < 0.9.
local function on_attach(client, bufnr)
  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  vim.diagnostic.config({ float = { format = M.format_diagnostic } }, ns)
  -- A float over all namespaces reads only the global options: the format goes there too,
  -- unless the user has one (it changes only jreach's diagnostics).
  local float = vim.diagnostic.config().float
  if float == nil or float == true or (type(float) == "table" and float.format == nil) then
    local opts = type(float) == "table" and vim.deepcopy(float) or {}
    opts.format = M.format_diagnostic
    vim.diagnostic.config({ float = opts })
  end
  if vim.fn.hlexists("DiagnosticUnnecessary") == 0 then
    vim.api.nvim_create_autocmd("DiagnosticChanged", {
      group = vim.api.nvim_create_augroup("jreach_fade_" .. bufnr, { clear = true }),
      buffer = bufnr,
      callback = function()
        fade(bufnr, ns)
      end,
    })
    fade(bufnr, ns)
  end
end

local function client_config(root)
  local settings = M.config.settings or {}
  return {
    name = M.config.name,
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = settings,
    settings = { jreach = settings },
    on_attach = on_attach,
    handlers = {
      -- The server's messages (they start with "jreach: "), on one line: Neovim's own handler
      -- (0.10+) ends them with a line break, which asks for ENTER after each. The line of the
      -- "solving..." or "running..." message still shown is cleared first, for the same reason.
      ["window/showMessage"] = function(_, result)
        vim.cmd("redraw")
        local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }
        vim.notify(result.message, levels[result.type] or vim.log.levels.INFO)
        return vim.NIL
      end,
    },
  }
end

--- Starts (or reuses) the server for `bufnr` and attaches it.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local fname = vim.api.nvim_buf_get_name(bufnr)
  -- Not for buffers that are no file (the preview of a test, `jreach://preview/...`).
  if fname == "" or vim.api.nvim_buf_get_option(bufnr, "buftype") ~= "" or M.client(bufnr) then
    return
  end
  local root = root_of(fname)
  if has("0.8") then
    vim.lsp.start(client_config(root), { bufnr = bufnr })
    return
  end
  local id = clients_by_root[root]
  if not (id and vim.lsp.get_client_by_id(id)) then
    id = vim.lsp.start_client(client_config(root))
    if not id then
      notify("jreach: cannot start " .. table.concat(M.config.cmd, " "), vim.log.levels.ERROR)
      return
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

local function request(client, method, params, handler, bufnr)
  if has("0.11") then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- The request the last command is waiting for: { client = ..., id = ... }, or nil.
local pending = nil

--- Cancels the command jreach is working on (:JReachCancel); says so when there is none.
function M.cancel()
  if not pending then
    notify("jreach: nothing to cancel")
    return false
  end
  local p = pending
  pending = nil
  p.cancelled = true
  if has("0.11") then
    p.client:cancel_request(p.id)
  else
    p.client.cancel_request(p.id)
  end
  -- The client may never call the request's handler once it is cancelled: the command ends here.
  notify("jreach: cancelled")
  p.finish({ status = "cancelled" })
  return true
end

--- Saves the loaded, modified buffer of `path`.
local function save(path)
  local b = vim.fn.bufnr(path)
  if b > 0 and vim.api.nvim_buf_is_loaded(b) and vim.api.nvim_buf_get_option(b, "modified") then
    vim.api.nvim_buf_call(b, function()
      vim.cmd("silent noautocmd write")
    end)
  end
end

--- Asks the server for the code lenses of `bufnr` and shows them. Not vim.lsp.codelens.refresh():
--- it skips a buffer whose earlier request is still out, so a test file asked for as soon as it
--- was created (still empty) would keep showing no "Run test" lens after the test was added.
local function refresh_lenses(bufnr)
  local client = M.config.codelens and M.client(bufnr)
  if not client then
    return
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  request(client, "textDocument/codeLens", params, function(err, result, ctx)
    pcall(vim.lsp.codelens.on_codelens, err, result, ctx)
  end, bufnr)
end

--- Shows the test file `path` (see `open` in the config), on the test method `method` when given.
local function show(path, method)
  if not M.config.open then
    return
  end
  local b = vim.fn.bufnr(path)
  local win = b > 0 and vim.fn.bufwinid(b) or -1
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd(M.config.open .. " " .. vim.fn.fnameescape(path))
  end
  if method then
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.fn.search("\\<" .. method .. "\\>\\s*(", "cW")
  end
  refresh_lenses(vim.api.nvim_get_current_buf())
end

--- Runs the server command `command` for `opts.bufnr` (default: the current buffer) with the
--- arguments `args(bufnr)`, after telling the user `working(bufnr)`; `on_result(result)` handles
--- a successful answer, then `opts.on_done(result)` gets it (an error too). The server shows
--- its own messages (window/showMessage): they are not repeated here.
local function run_command(opts, command, args, working, on_result)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and vim.api.nvim_get_current_buf() or opts.bufnr
  local client = M.client(bufnr)
  if not client then
    notify("jreach: no jreach server for this buffer (is it a Java file? see :checkhealth jreach)", vim.log.levels.WARN)
    if opts.on_done then
      opts.on_done({ status = "error", message = "no client" })
    end
    return
  end
  notify(working(bufnr) .. " (:JReachCancel stops it)")
  local params = { command = command, arguments = { args(bufnr) } }
  local this = { client = client }
  local finished = false
  this.finish = function(result)
    if not finished then
      finished = true
      if opts.on_done then
        opts.on_done(result)
      end
    end
  end
  local ok, id = request(client, "workspace/executeCommand", params, function(err, result)
    if pending == this then
      pending = nil
    end
    if this.cancelled then
      -- Cancelled by the user (:JReachCancel), which has said so and ended the command.
      return
    elseif err and err.code == -32800 then
      this.finish({ status = "cancelled" })
      return
    elseif err then
      notify("jreach: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      result = { status = "error", message = err.message }
    elseif result then
      on_result(result)
    end
    this.finish(result or {})
  end, bufnr)
  if ok and id then
    this.id = id
    pending = this
  end
end

--- Shows `result` (the server's answer with `preview`: the test file's new text and the edit)
--- in a scratch split on the new method and asks whether to write it; writes it on yes.
--- Returns true when it was written.
local function preview_and_write(client, result)
  local name = vim.fn.fnamemodify(result.path, ":t")
  local origin = vim.api.nvim_get_current_win()
  vim.cmd("botright new")
  local buf = vim.api.nvim_get_current_buf()
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_buf_set_option(buf, "buftype", "nofile")
  vim.api.nvim_buf_set_option(buf, "bufhidden", "wipe")
  vim.api.nvim_buf_set_option(buf, "swapfile", false)
  pcall(vim.api.nvim_buf_set_name, buf, "jreach://preview/" .. name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(result.content, "\n", { plain = true }))
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  vim.api.nvim_buf_set_option(buf, "filetype", "java")
  vim.fn.search("\\<" .. result.method .. "\\>\\s*(", "cw")
  vim.cmd("normal! zt")
  vim.cmd("redraw")
  local what = result.replaces and (" (it replaces " .. result.replaces .. ", the earlier test for this statement)")
    or ""
  local choice = vim.fn.confirm(("jreach: write %s to %s%s?"):format(result.method, name, what), "&Write\n&Discard", 1)
  -- The question and the "solving" line before it leave the message area scrolled: clear it,
  -- so the one line saying what was written does not ask to press ENTER.
  vim.cmd("redraw")
  if vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_win_close(win, true)
  end
  if vim.api.nvim_win_is_valid(origin) then
    vim.api.nvim_set_current_win(origin)
  end
  if choice ~= 1 then
    notify("jreach: the test was not written")
    return false
  end
  if result.created then
    vim.fn.mkdir(vim.fn.fnamemodify(result.path, ":h"), "p")
  end
  vim.lsp.util.apply_workspace_edit(result.edit, client.offset_encoding or "utf-16")
  local verb = result.replaces and ("replaced " .. result.replaces .. " in") or (result.created and "created" or "added a test to")
  notify(("jreach: %s %s (%s)%s"):format(verb, name, result.method, result.note or ""))
  return true
end

--- Generates a test reaching `line` (1-based; default: the cursor line) of `bufnr`.
--- `on_done(result)` gets the server's answer: {status = "test", path = ..., method = ...} or
--- {status = "unreachable" | "unknown" | "unsaved" | "error", message = ...}, or
--- {status = "cancelled"} after :JReachCancel.
function M.generate_test(opts)
  opts = opts or {}
  local line = opts.line or vim.api.nvim_win_get_cursor(0)[1]
  local preview = M.config.preview and true or false
  local client
  run_command(opts, "jreach.generateTest", function(bufnr)
    client = M.client(bufnr)
    return { uri = vim.uri_from_bufnr(bufnr), line = line - 1, preview = preview }
  end, function()
    return ("jreach: solving for line %d..."):format(line)
  end, function(result)
    if result.status == "test" and result.preview and result.path then
      if not preview_and_write(client, result) then
        result.status = "discarded"
        return
      end
    end
    if result.status == "test" and result.path then
      if M.config.save then
        save(result.path)
      end
      show(result.path, result.method)
    end
  end)
end

local run_ns = vim.api.nvim_create_namespace("jreach_run")

--- Marks what a run of a test covered in the code under test (`result.source`): its covered
--- lines get a sign, the target line a note; the marks go when that buffer changes.
local function mark_run(result, method)
  if not result.source or result.status == "error" then
    return
  end
  local path = vim.uri_to_fname(result.source)
  local b = vim.fn.bufadd(path)
  vim.fn.bufload(b)
  vim.api.nvim_buf_clear_namespace(b, run_ns, 0, -1)
  local count = vim.api.nvim_buf_line_count(b)
  for _, l in ipairs(result.covered or {}) do
    if l >= 1 and l <= count then
      vim.api.nvim_buf_set_extmark(b, run_ns, l - 1, 0, { sign_text = "▎", sign_hl_group = "DiffAdd" })
    end
  end
  if result.line and result.line <= count then
    local note = (result.reached and "✓ reached by " or "✗ not reached by ") .. method
    vim.api.nvim_buf_set_extmark(b, run_ns, result.line - 1, 0, {
      virt_text = { { note, result.reached and "DiffAdd" or "DiffDelete" } },
      line_hl_group = result.reached and "DiffAdd" or nil,
    })
  end
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
    group = vim.api.nvim_create_augroup("jreach_run_" .. b, { clear = true }),
    buffer = b,
    once = true,
    callback = function()
      vim.api.nvim_buf_clear_namespace(b, run_ns, 0, -1)
    end,
  })
  -- The code under test, on the target line, beside the test.
  local back = vim.api.nvim_get_current_win()
  if M.config.open and result.line then
    show(path)
    vim.api.nvim_win_set_cursor(0, { math.min(result.line, count), 0 })
    if vim.api.nvim_win_is_valid(back) then
      vim.api.nvim_set_current_win(back)
    end
  end
end

--- Runs the generated test `opts.method` (default: the test method around the cursor) of the
--- test buffer `opts.bufnr` on the JVM, says how it went, and marks what it covered in the code
--- under test. `on_done(result)` gets the server's answer: {status = "passed" | "failed" |
--- "error", message = ..., source = uri, line = ..., reached = bool, covered = {...}}.
function M.run_test(opts)
  opts = opts or {}
  local method = opts.method
  if not method then
    local at = vim.fn.search("\\<void\\s\\+\\w\\+\\s*(", "bcnW")
    local text = at > 0 and vim.fn.getline(at) or ""
    method = text:match("void%s+([%w_$]+)%s*%(")
  end
  if not method then
    notify("jreach: put the cursor in a test method jreach wrote", vim.log.levels.WARN)
    return
  end
  run_command(opts, "jreach.runTest", function(bufnr)
    return { uri = vim.uri_from_bufnr(bufnr), method = method }
  end, function()
    return "jreach: running " .. method .. "..."
  end, function(result)
    mark_run(result, method)
  end)
end

--- Fills the coverage gaps of `bufnr` (default: the current buffer): the server gives every
--- statement its workspace's JaCoCo report says no test runs a test, a proof that it is dead or
--- a reason, and adds the tests in one edit; they are saved and the first is shown.
--- `on_done(result)` gets the server's answer: {status = "tests" | "none" | "unsaved" | "stale" |
--- "error", results = {{line = ..., status = ..., path = ..., method = ...}, ...}, ...}.
function M.fill_file(opts)
  run_command(opts, "jreach.fillFile", function(bufnr)
    return { uri = vim.uri_from_bufnr(bufnr) }
  end, function(bufnr)
    local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":t")
    return "jreach: generating tests for the uncovered statements of " .. name .. "..."
  end, function(result)
    if result.status ~= "tests" then
      return
    end
    -- The server has applied the edit (workspace/applyEdit) and said what it found.
    local first
    for _, r in ipairs(result.results or {}) do
      if r.status == "test" and r.path then
        if M.config.save then
          save(r.path)
        end
        first = first or r
      end
    end
    if first then
      show(first.path, first.method)
    end
    if M.config.codelens then
      pcall(vim.lsp.codelens.refresh)
    end
  end)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if opts and opts.cmd then
    M.config.cmd = opts.cmd -- a list replaces, not merges
  end
  local group = vim.api.nvim_create_augroup("jreach", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- A resolved "Generate test" code action creates the test file as a buffer, then runs this
  -- command: make the file's folders and save it (as :JReachGenerateTest does).
  vim.lsp.commands["jreach.testCreated"] = function(command)
    local arg = command.arguments and command.arguments[1] or {}
    if type(arg.path) ~= "string" then
      return
    end
    vim.fn.mkdir(vim.fn.fnamemodify(arg.path, ":h"), "p")
    if M.config.save then
      save(arg.path)
    end
    notify("jreach: test written to " .. arg.path)
    show(arg.path, arg.method)
  end
  -- The coverage lens's command, run through the plugin so that the tests are saved and shown.
  vim.lsp.commands["jreach.fillFile"] = function(_, ctx)
    M.fill_file({ bufnr = ctx and ctx.bufnr })
  end
  vim.api.nvim_create_user_command("JReachFillCoverage", function()
    M.fill_file()
  end, { desc = "jreach: write tests for the statements of this file no test runs (per the JaCoCo report)" })
  if M.config.codelens then
    vim.api.nvim_create_autocmd({ "BufEnter", "BufWritePost" }, {
      group = group,
      pattern = "*.java",
      callback = function(args)
        refresh_lenses(args.buf)
      end,
    })
  end
  -- The "▶ Run test" lens of a generated test, run through the plugin to mark what it covered.
  vim.lsp.commands["jreach.runTest"] = function(command, ctx)
    local arg = command.arguments and command.arguments[1] or {}
    M.run_test({ bufnr = ctx and ctx.bufnr, method = arg.method })
  end
  vim.api.nvim_create_user_command("JReachRunTest", function()
    M.run_test()
  end, { desc = "jreach: run the generated test around the cursor and mark the lines it covered" })
  vim.api.nvim_create_user_command("JReachCancel", function()
    M.cancel()
  end, { desc = "jreach: stop the test generation or coverage fill going on" })
  vim.api.nvim_create_user_command("JReachGenerateTest", function(cmd)
    local line = cmd.range > 0 and cmd.line1 or nil
    M.generate_test({ line = line })
  end, { range = true, desc = "jreach: write a JUnit test reaching the statement on this line" })
  -- Buffers already open.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
end

return M
