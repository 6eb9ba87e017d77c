-- :checkhealth jreach — what the plugin needs and whether this machine has it: the server
-- (`cmd`), a JDK (java and javac: generated tests are run on the JVM before they are offered),
-- the plugin's setup, and the server attached to the current buffer.

local M = {}

-- vim.health (0.10+; report_* in 0.8 and 0.9) or the health module of 0.7.
local function reporter()
  local h = vim.health or require("health")
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

local function first_line(cmd)
  local out = vim.fn.systemlist(cmd)
  if vim.v.shell_error ~= 0 then
    return nil
  end
  return out[1]
end

function M.check()
  local h = reporter()
  local jreach = require("jreach")
  local cmd = jreach.config.cmd or { "jreach", "lsp" }

  h.start("jreach: the server")
  local exe = cmd[1]
  if vim.fn.executable(exe) == 1 then
    local version = first_line({ exe, "--version" })
    if version then
      h.ok(("%s (%s)"):format(version, vim.fn.exepath(exe)))
    else
      h.error(("%s does not answer --version"):format(exe), { "Is cmd in require('jreach').setup() the jreach binary?" })
    end
  else
    h.error(("the server command %q is not an executable"):format(exe), {
      "Build it (cargo build --release in the jreach repository) or install it on your PATH,",
      "or set cmd = { '/path/to/jreach', 'lsp' } in require('jreach').setup().",
    })
  end

  h.start("jreach: a JDK (tests are run on the JVM before they are offered)")
  for _, tool in ipairs({ "java", "javac" }) do
    if vim.fn.executable(tool) == 1 then
      h.ok(tool .. ": " .. vim.fn.exepath(tool))
    else
      h.warn(tool .. " not found", {
        "Install a JDK (Debian: apt-get install default-jdk-headless) or put its bin folder on PATH;",
        "without it, tests are written unverified.",
      })
    end
  end

  h.start("jreach: Java buffers")
  local java, attached = 0, 0
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == "java" then
      java = java + 1
      if jreach.client(b) then
        attached = attached + 1
      end
    end
  end
  if java == 0 then
    h.info("no Java buffer open: open a .java file to see whether the server attaches")
  elseif attached == java then
    h.ok(("the server is attached to the %d Java buffer(s)"):format(java))
  else
    h.warn(("the server is attached to %d of %d Java buffers"):format(attached, java),
      { "Did require('jreach').setup() run before they were opened? See :LspInfo." })
  end
end

return M
