[CmdletBinding()]
param()
$ErrorActionPreference = 'Stop'

function Install-IfMissing([string]$Id) {
    winget list --id $Id --exact --accept-source-agreements *> $null
    if ($LASTEXITCODE -ne 0) {
        winget install --id $Id --exact --silent --scope user --source winget `
            --accept-source-agreements --accept-package-agreements
    } else { Write-Host "$Id already installed" }
}

Install-IfMissing 'Microsoft.PowerShell'
Install-IfMissing 'DEVCOM.JetBrainsMonoNerdFont'

# ANSI escape sequences in classic console windows
New-Item -Path 'HKCU:\Console' -Force | Out-Null
Set-ItemProperty -Path 'HKCU:\Console' -Name 'VirtualTerminalLevel' -Type DWord -Value 1

# Locate Windows Terminal settings (Store or unpackaged)
$candidates = @(
    "$env:LOCALAPPDATA\Packages\Microsoft.WindowsTerminal_8wekyb3d8bbwe\LocalState\settings.json",
    "$env:LOCALAPPDATA\Microsoft\Windows Terminal\settings.json"
)
$settingsPath = $candidates | Where-Object { Test-Path $_ } | Select-Object -First 1
if ($settingsPath) {
    $backup = "$settingsPath.bak-$(Get-Date -Format yyyyMMddHHmmss)"
    Copy-Item $settingsPath $backup
    Write-Host "Backed up Windows Terminal settings to $backup"
    $s = Get-Content $settingsPath -Raw | ConvertFrom-Json
    $pwsh = $s.profiles.list | Where-Object { $_.source -eq 'Windows.Terminal.PowershellCore' } | Select-Object -First 1
    if ($pwsh) { $s.defaultProfile = $pwsh.guid }
    if (-not $s.profiles.defaults) { $s.profiles | Add-Member -NotePropertyName defaults -NotePropertyValue ([pscustomobject]@{}) }
    $s.profiles.defaults | Add-Member -Force -NotePropertyName font -NotePropertyValue ([pscustomobject]@{ face = 'JetBrainsMono Nerd Font'; size = 11 })
    $s.profiles.defaults | Add-Member -Force -NotePropertyName padding -NotePropertyValue '8'
    $s.profiles.defaults | Add-Member -Force -NotePropertyName cursorShape -NotePropertyValue 'bar'
    $s | ConvertTo-Json -Depth 32 | Set-Content -Path $settingsPath -Encoding utf8
} else {
    Write-Warning 'Windows Terminal settings.json not found; open Windows Terminal once and re-run.'
}

# PowerShell 7 profile additions
$pwshProfile = Join-Path ([Environment]::GetFolderPath('MyDocuments')) 'PowerShell\Microsoft.PowerShell_profile.ps1'
New-Item -ItemType File -Force -Path $pwshProfile | Out-Null
$block = @'
# >>> terminal-profile
Set-PSReadLineOption -PredictionSource History -PredictionViewStyle ListView
Set-PSReadLineKeyHandler -Key UpArrow -Function HistorySearchBackward
Set-PSReadLineKeyHandler -Key DownArrow -Function HistorySearchForward
Set-PSReadLineOption -HistoryNoDuplicates
# <<< terminal-profile
'@
if (-not (Select-String -Path $pwshProfile -Pattern '# >>> terminal-profile' -Quiet)) {
    Add-Content -Path $pwshProfile -Value "`n$block"
}
Write-Host 'Done. Restart Windows Terminal.' -ForegroundColor Green
