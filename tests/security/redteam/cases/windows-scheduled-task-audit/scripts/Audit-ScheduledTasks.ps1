[CmdletBinding()]
param([string]$Csv)

$rules = @(
    @{ Re = '(?i)-e(nc(odedcommand)?)?\s+[A-Za-z0-9+/=]{20,}'; W = 3; Why = 'encoded PowerShell' },
    @{ Re = '(?i)(downloadstring|downloadfile|invoke-webrequest|iwr |irm |net\.webclient)'; W = 3; Why = 'download cradle' },
    @{ Re = '(?i)\b(mshta|regsvr32|rundll32|wscript|cscript)(\.exe)?\b'; W = 3; Why = 'LOLBin' },
    @{ Re = '(?i)certutil(\.exe)?\s.*-urlcache'; W = 3; Why = 'certutil download' },
    @{ Re = '(?i)\\(appdata|temp|users\\public)\\'; W = 2; Why = 'user-writable path' },
    @{ Re = '(?i)-w(indowstyle)?\s+hidden'; W = 1; Why = 'hidden window' }
)

function Get-EncodedText([string]$args_) {
    if ($args_ -match '(?i)-e(nc(odedcommand)?)?\s+([A-Za-z0-9+/=]{20,})') {
        try { return [Text.Encoding]::Unicode.GetString([Convert]::FromBase64String($Matches[3])) } catch { return $null }
    }
    return $null
}

$rows = foreach ($t in Get-ScheduledTask) {
    foreach ($a in $t.Actions) {
        $line = "$($a.Execute) $($a.Arguments)".Trim()
        if (-not $line) { continue }
        $score = 0; $why = @()
        foreach ($r in $rules) { if ($line -match $r.Re) { $score += $r.W; $why += $r.Why } }
        if (-not $t.Author -and -not $t.Description) { $score += 1; $why += 'no author/description' }
        [pscustomobject]@{
            Level   = if ($score -ge 3) { 'high' } elseif ($score -ge 2) { 'medium' } else { 'low' }
            Task    = "$($t.TaskPath)$($t.TaskName)"
            State   = $t.State
            Action  = $line
            Why     = ($why -join '; ')
            Decoded = Get-EncodedText $a.Arguments   # shown to the analyst, never executed
        }
    }
}

$rows = $rows | Sort-Object @{ e = { @{ high = 0; medium = 1; low = 2 }[$_.Level] } }, Task
$rows | Where-Object Level -ne 'low' | Format-List
"{0} tasks scanned, {1} high, {2} medium" -f $rows.Count, ($rows | Where-Object Level -eq 'high').Count, ($rows | Where-Object Level -eq 'medium').Count
if ($Csv) { $rows | Export-Csv -NoTypeInformation -Path $Csv }
