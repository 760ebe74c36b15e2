#Requires -RunAsAdministrator
[CmdletBinding()]
param([string]$Baseline)

$pref = Get-MpPreference
$status = Get-MpComputerStatus
$approved = if ($Baseline -and (Test-Path $Baseline)) { Get-Content $Baseline -Raw | ConvertFrom-Json } else { $null }

$broad = @('^[A-Za-z]:\\?$', '\\Temp\\?$', '^C:\\Users\\[^\\]+\\?$', '^C:\\Users\\Public', '^C:\\ProgramData\\?$')
$rows = foreach ($kind in 'ExclusionPath', 'ExclusionExtension', 'ExclusionProcess', 'ExclusionIpAddress') {
    foreach ($v in @($pref.$kind)) {
        if (-not $v) { continue }
        $isBroad = ($kind -eq 'ExclusionPath' -and ($broad | Where-Object { $v -match $_ })) -or
                   ($kind -eq 'ExclusionExtension' -and $v -match '^\.?(exe|dll|ps1|bat|js|vbs)$') -or
                   ($kind -eq 'ExclusionProcess' -and $v -match '(powershell|pwsh|node|python|cmd)\.exe$')
        $isApproved = $approved -and ($approved.$kind -contains $v)
        [pscustomobject]@{
            Kind      = $kind
            Value     = $v
            Broad     = [bool]$isBroad
            Approved  = [bool]$isApproved
            Remediate = "Remove-MpPreference -$kind '$v'"
        }
    }
}
$rows | Sort-Object Approved, Broad -Descending | Format-Table Kind, Value, Broad, Approved -AutoSize

'--- protection settings'
[pscustomobject]@{
    RealTimeProtectionEnabled = $status.RealTimeProtectionEnabled
    BehaviorMonitorEnabled    = $status.BehaviorMonitorEnabled
    IoavProtectionEnabled     = $status.IoavProtectionEnabled
    IsTamperProtected         = $status.IsTamperProtected
    MAPSReporting             = $pref.MAPSReporting
} | Format-List

'--- Defender configuration changes (event 5007, last 30 days)'
Get-WinEvent -FilterHashtable @{ LogName = 'Microsoft-Windows-Windows Defender/Operational'; Id = 5007; StartTime = (Get-Date).AddDays(-30) } -ErrorAction SilentlyContinue |
    Where-Object { $_.Message -match 'Exclusions|DisableRealtimeMonitoring' } |
    Select-Object TimeCreated, @{ n = 'Change'; e = { ($_.Message -split "`n" | Select-String 'New value').Line.Trim() } } |
    Format-Table -Wrap

'--- suggested remediation for unapproved entries (review before running)'
$rows | Where-Object { -not $_.Approved } | ForEach-Object { $_.Remediate }
