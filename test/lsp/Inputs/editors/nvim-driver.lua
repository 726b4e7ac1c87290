-- Test driver, sourced after the recipe once the file is open: waits for
-- the warp diagnostics the recipe's client receives, prints them, quits.
local function has_warp()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if tostring(d.code or ''):match('^warp%-') then
      return true
    end
  end
  return false
end
local ok = vim.wait(120000, has_warp, 200)
for _, d in ipairs(vim.diagnostic.get(0)) do
  io.stdout:write(string.format('%d:%d: %s [%s]\n', d.lnum + 1, d.col + 1,
                                vim.split(d.message, '\n')[1], tostring(d.code)))
end
io.stdout:write(ok and 'nvim: warp diagnostics received\n' or 'nvim: timed out\n')
-- The quick fixes the client is offered for each warp diagnostic (what
-- vim.lsp.buf.code_action() lists), asked as the client asks.
-- clangd finds a diagnostic's fixes by its range and message.
for _, d in ipairs(vim.diagnostic.get(0)) do
  if tostring(d.code or ''):match('^warp%-') then
    local range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum, character = d.end_col },
    }
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(0) },
      range = range,
      context = { diagnostics = { { range = range, message = d.message, code = d.code,
                                    severity = d.severity, source = d.source } } },
    }
    local replies = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 30000) or {}
    for _, reply in pairs(replies) do
      for _, action in ipairs(reply.result or {}) do
        io.stdout:write(string.format('%d:%d: fix: %s\n', d.lnum + 1, d.col + 1,
                                      vim.split(action.title, '\n')[1]))
      end
    end
  end
end
vim.cmd('qa!')
