-- user/format_on_save.lua : pipe buffer through a local formatter on save
local formatters = {
  lua = { "stylua", "-" },
  python = { "ruff", "format", "-" },
  javascript = { "prettier", "--stdin-filepath", "%f" },
  typescript = { "prettier", "--stdin-filepath", "%f" },
  json = { "prettier", "--stdin-filepath", "%f" },
  go = { "gofmt" },
  rust = { "rustfmt", "--emit", "stdout", "--edition", "2021" },
}

local enabled = true

local function format(buf)
  local spec = formatters[vim.bo[buf].filetype]
  if not enabled or not spec or vim.fn.executable(spec[1]) ~= 1 then return end
  local fname = vim.api.nvim_buf_get_name(buf)
  local cmd = vim.tbl_map(function(a) return (a:gsub("%%f", fname)) end, spec)
  local input = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
  local res = vim.system(cmd, { stdin = input, text = true }):wait(5000)
  if res.code ~= 0 or not res.stdout or res.stdout == "" then
    if res.stderr and res.stderr ~= "" then vim.notify(res.stderr, vim.log.levels.WARN, { title = spec[1] }) end
    return
  end
  local lines = vim.split(res.stdout:gsub("\n$", ""), "\n", { plain = true })
  local view = vim.fn.winsaveview()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.fn.winrestview(view)
end

vim.api.nvim_create_autocmd("BufWritePre", {
  group = vim.api.nvim_create_augroup("user_format_on_save", { clear = true }),
  callback = function(ev) format(ev.buf) end,
})

vim.api.nvim_create_user_command("FormatToggle", function()
  enabled = not enabled
  vim.notify("format on save: " .. (enabled and "on" or "off"))
end, {})
