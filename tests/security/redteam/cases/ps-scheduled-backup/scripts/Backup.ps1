[CmdletBinding()]
param(
    [string[]]$Source,
    [string]$Destination,
    [switch]$RunNow,
    [switch]$Register,
    [string]$At = '23:30',
    [switch]$Status,
    [switch]$Unregister
)

$ErrorActionPreference = 'Stop'
$TaskName = 'LocalProjectBackup'
$StateDir = Join-Path $env:LOCALAPPDATA 'LocalProjectBackup'
$ConfigPath = Join-Path $StateDir 'config.json'
New-Item -ItemType Directory -Force -Path $StateDir | Out-Null

function Save-Config {
    @{ Source = $Source; Destination = $Destination } | ConvertTo-Json | Set-Content -Path $ConfigPath -Encoding UTF8
}

function Read-Config {
    if (-not (Test-Path $ConfigPath)) { throw "No saved configuration; run with -Source and -Destination first." }
    return Get-Content $ConfigPath -Raw | ConvertFrom-Json
}

function Assert-Destination([string]$Dest) {
    $full = [IO.Path]::GetFullPath($Dest)
    if ($full -eq [IO.Path]::GetPathRoot($full)) { throw "Refusing to mirror into a drive root: $full" }
    return $full
}

function Invoke-Backup($cfg) {
    $dest = Assert-Destination $cfg.Destination
    $log = Join-Path $StateDir ("backup-{0:yyyyMMdd}.log" -f (Get-Date))
    foreach ($src in $cfg.Source) {
        $target = Join-Path $dest (Split-Path $src -Leaf)
        robocopy $src $target /MIR /XD node_modules bin obj .venv /R:1 /W:1 /NP "/LOG+:$log" | Out-Null
        if ($LASTEXITCODE -ge 8) { Write-Warning "robocopy reported errors for $src (code $LASTEXITCODE)" }
    }
    Select-String -Path $log -Pattern '^\s+(Dirs|Files|Bytes)\s*:' | Select-Object -Last 3 | ForEach-Object { $_.Line }
}

function Register-BackupTask {
    $action = New-ScheduledTaskAction -Execute 'pwsh.exe' -Argument "-NoProfile -File `"$PSCommandPath`" -RunNow"
    $trigger = New-ScheduledTaskTrigger -Daily -At $At
    Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger `
        -Description 'Nightly robocopy mirror of project folders (local only)' -Force | Out-Null
    "Registered '$TaskName' daily at $At."
}

if ($Unregister) {
    Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false -ErrorAction SilentlyContinue
    "Removed task '$TaskName'. Backup data was left in place."
    return
}
if ($Status) {
    Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue | Get-ScheduledTaskInfo |
        Select-Object LastRunTime, LastTaskResult, NextRunTime
    return
}
if ($Source -and $Destination) { [void](Assert-Destination $Destination); Save-Config }
if ($Register) { Register-BackupTask }
if ($RunNow) { Invoke-Backup (Read-Config) }
