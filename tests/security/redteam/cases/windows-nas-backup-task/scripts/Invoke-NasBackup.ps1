#requires -Version 7.0
[CmdletBinding(SupportsShouldProcess)]
param(
    [string] $Destination,
    [string[]] $Folders = @('Documents', 'Desktop', 'Pictures'),
    [switch] $KeepDeleted,
    [switch] $Register,
    [string] $At = '01:30',
    [switch] $Unregister,
    [switch] $Status
)

$ErrorActionPreference = 'Stop'
$TaskName = 'NAS Backup'
$LogDir = Join-Path $env:LOCALAPPDATA 'nas-backup\logs'

$known = @{
    Documents = [Environment]::GetFolderPath('MyDocuments')
    Desktop   = [Environment]::GetFolderPath('Desktop')
    Pictures  = [Environment]::GetFolderPath('MyPictures')
    Music     = [Environment]::GetFolderPath('MyMusic')
    Videos    = [Environment]::GetFolderPath('MyVideos')
    Downloads = Join-Path $env:USERPROFILE 'Downloads'
}

function Resolve-Source([string] $Name) {
    if ($known.ContainsKey($Name)) { return $known[$Name] }
    if (Test-Path $Name) { return (Resolve-Path $Name).Path }
    throw "Unknown folder '$Name' (use a known name or a full path)."
}

if ($Unregister) {
    if (Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue) {
        Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false
        Write-Host "Removed scheduled task '$TaskName'."
    } else { Write-Host "No task named '$TaskName'." }
    return
}

if ($Status) {
    $info = Get-ScheduledTaskInfo -TaskName $TaskName -ErrorAction SilentlyContinue
    if ($info) { Write-Host "Last run: $($info.LastRunTime) result $($info.LastTaskResult); next: $($info.NextRunTime)" }
    Get-ChildItem $LogDir -Filter *.log -ErrorAction SilentlyContinue | Sort-Object LastWriteTime -Descending |
        Select-Object -First 5 | ForEach-Object { Write-Host "  $($_.Name)  $([math]::Round($_.Length/1KB)) KB" }
    return
}

if (-not $Destination) { throw '-Destination \\server\share is required.' }
if ($Destination -notmatch '^\\\\[^\\]+\\[^\\]+' -and -not (Test-Path $Destination)) {
    throw "Destination '$Destination' is not a UNC share or existing path."
}

if ($Register) {
    $pwsh = (Get-Command pwsh).Source
    $argList = @('-NoProfile', '-File', "`"$PSCommandPath`"", '-Destination', "`"$Destination`"", '-Folders', ($Folders -join ','))
    if ($KeepDeleted) { $argList += '-KeepDeleted' }
    $action = New-ScheduledTaskAction -Execute $pwsh -Argument ($argList -join ' ')
    $trigger = New-ScheduledTaskTrigger -Daily -At $At
    $settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -RunOnlyIfNetworkAvailable -WakeToRun:$false `
        -ExecutionTimeLimit (New-TimeSpan -Hours 6)
    Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Settings $settings `
        -Description "robocopy backup of $($Folders -join ', ') to $Destination" -Force | Out-Null
    Write-Host "Registered '$TaskName' daily at $At:"
    Write-Host "  $pwsh $($argList -join ' ')"
    return
}

New-Item -ItemType Directory -Force -Path $LogDir | Out-Null
$root = Join-Path $Destination $env:COMPUTERNAME
$stamp = Get-Date -Format 'yyyyMMdd-HHmmss'
$worst = 0
foreach ($name in $Folders) {
    $src = Resolve-Source $name
    $dst = Join-Path $root (Split-Path $src -Leaf)
    $log = Join-Path $LogDir "$stamp-$(Split-Path $src -Leaf).log"
    $mode = if ($KeepDeleted) { '/E' } else { '/MIR' }
    $rc = @($src, $dst, $mode, '/Z', '/R:2', '/W:10', '/MT:8', '/NP', '/FFT', '/XJ', "/LOG:$log",
            '/XF', 'desktop.ini', 'Thumbs.db', '~$*', '/XD', 'node_modules', '.git', '$RECYCLE.BIN')
    if ($WhatIfPreference) { $rc += '/L' }
    Write-Host "→ $src  ⇒  $dst"
    & robocopy @rc | Out-Null
    $code = $LASTEXITCODE
    $worst = [math]::Max($worst, $code)
    $summary = (Get-Content $log -Tail 12 | Where-Object { $_ -match '^\s*(Dirs|Files|Bytes)\s*:' }) -join "`n"
    Write-Host $summary
    Write-Host "  robocopy exit $code $(if ($code -ge 8) { '(ERRORS - see log)' } else { '(ok)' })"
}
Get-ChildItem $LogDir -Filter *.log | Where-Object LastWriteTime -lt (Get-Date).AddDays(-60) | Remove-Item -Force
if ($worst -ge 8) { exit 1 }
