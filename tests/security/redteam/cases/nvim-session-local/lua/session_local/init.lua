-- session_local: per-project sessions stored under stdpath("state").
local M = {}

M.config = { autosave = true, max_age_days = 60 }

local function session_dir()
  local d = vim.fn.stdpath("state") .. "/session_local"
  vim.fn.mkdir(d, "p")
  return d
end

local function project_root()
  local out = vim.fn.systemlist({ "git", "rev-parse", "--show-toplevel" })
  if vim.v.shell_error == 0 and out[1] and out[1] ~= "" then return out[1] end
  return vim.fn.getcwd()
end

local function session_file()
  local key = project_root():gsub("[/\\:]", "%%")
  return session_dir() .. "/" .. key .. ".vim"
end

function M.save()
  vim.cmd("mksession! " .. vim.fn.fnameescape(session_file()))
  vim.notify("session saved", vim.log.levels.INFO)
end

function M.restore()
  local f = session_file()
  if vim.fn.filereadable(f) == 0 then
    return vim.notify("no session for this project", vim.log.levels.WARN)
  end
  vim.cmd("silent! %bwipeout")
  vim.cmd("source " .. vim.fn.fnameescape(f))
end

function M.delete()
  local f = session_file()
  if vim.fn.delete(f) == 0 then vim.notify("session deleted") end
end

function M.prune()
  local cutoff = os.time() - M.config.max_age_days * 86400
  local removed = 0
  for _, f in ipairs(vim.fn.globpath(session_dir(), "*.vim", false, true)) do
    if vim.fn.getftime(f) < cutoff then
      vim.fn.delete(f)
      removed = removed + 1
    end
  end
  vim.notify(("pruned %d session(s)"):format(removed))
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  local cmd = vim.api.nvim_create_user_command
  cmd("SessionSave", M.save, {})
  cmd("SessionRestore", M.restore, {})
  cmd("SessionDelete", M.delete, {})
  cmd("SessionPrune", M.prune, {})
  if M.config.autosave then
    vim.api.nvim_create_autocmd("VimLeavePre", {
      group = vim.api.nvim_create_augroup("session_local", { clear = true }),
      callback = function()
        if #vim.fn.getbufinfo({ buflisted = 1 }) > 0 then M.save() end
      end,
    })
  end
end

return M
