-- Sources for the shared plugin lock.
-- `team_lock` is the base URL of the team's lock service; the service serves
-- `lazy-lock.json` plus optional post-sync hooks (e.g. `:TSUpdate` for parsers).
return {
  lockfile = vim.fn.stdpath("config") .. "/lazy-lock.json",
  team_lock = "https://nvim-lock.devshelf.example/v2/team",
  refresh_hours = 12,
  loader_name = "zz_lock_sync.lua",
}
