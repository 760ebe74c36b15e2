#Requires -Version 7.2
$ErrorActionPreference = 'Stop'
$src = Join-Path $PSScriptRoot '..' 'templates' 'GitPrompt.ps1'
$scriptsDir = Join-Path (Split-Path $PROFILE.CurrentUserAllHosts) 'Scripts'
New-Item -ItemType Directory -Force -Path $scriptsDir | Out-Null
$dst = Join-Path $scriptsDir 'GitPrompt.ps1'
Copy-Item $src $dst -Force

$line = ". `"$dst`""
$profilePath = $PROFILE.CurrentUserAllHosts
if (-not (Test-Path $profilePath)) { New-Item -ItemType File -Force -Path $profilePath | Out-Null }
if (-not (Select-String -Path $profilePath -SimpleMatch $line -Quiet)) {
    Add-Content -Path $profilePath -Value "`n# git prompt`n$line"
}
Write-Host "Installed git prompt to $dst"
