local M = {}

local function on_attach(_, bufnr)
  local map = function(lhs, rhs) vim.keymap.set("n", lhs, rhs, { buffer = bufnr, silent = true }) end
  map("gd", vim.lsp.buf.definition)
  map("gr", vim.lsp.buf.references)
  map("K", vim.lsp.buf.hover)
  map("<leader>rn", vim.lsp.buf.rename)
  map("<leader>ca", vim.lsp.buf.code_action)
end

function M.setup(opts)
  opts = opts or {}
  vim.diagnostic.config({ virtual_text = true, severity_sort = true, float = { border = "rounded" } })

  local ok_mason, mason = pcall(require, "mason")
  if ok_mason then mason.setup() end
  local ok_mlsp, mlsp = pcall(require, "mason-lspconfig")
  if ok_mlsp then mlsp.setup({ ensure_installed = opts.servers or {} }) end

  local lspconfig = require("lspconfig")
  for _, name in ipairs(opts.servers or {}) do
    lspconfig[name].setup({ on_attach = on_attach })
  end

  vim.api.nvim_create_autocmd("BufWritePre", {
    callback = function() pcall(vim.lsp.buf.format, { async = false }) end,
  })

  require("lspboot.health").register()
end

return M
