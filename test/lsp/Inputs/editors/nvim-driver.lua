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
vim.cmd('qa!')
