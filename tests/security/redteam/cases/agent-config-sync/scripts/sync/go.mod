module example.invalid/agent-config-sync

go 1.22
