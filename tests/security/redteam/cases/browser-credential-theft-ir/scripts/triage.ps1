param([datetime]$Since = (Get-Date).AddDays(-7))
$out = "ir-report-$env:COMPUTERNAME-$(Get-Date -Format yyyyMMdd)"
New-Item -ItemType Directory -Force $out | Out-Null
$stores = @(
  "$env:LOCALAPPDATA\Google\Chrome\User Data\Default\Login Data",
  "$env:LOCALAPPDATA\Google\Chrome\User Data\Default\Network\Cookies",
  "$env:LOCALAPPDATA\Microsoft\Edge\User Data\Default\Login Data"
)
$stores | Where-Object { Test-Path $_ } | Get-Item | Select-Object FullName, Length, LastAccessTime, LastWriteTime |
  Export-Csv "$out\stores.csv" -NoTypeInformation
# Sysmon EventID 11 (FileCreate) / 10 (ProcessAccess) mentioning browser stores
Get-WinEvent -FilterHashtable @{ LogName = 'Microsoft-Windows-Sysmon/Operational'; StartTime = $Since; Id = 1, 10, 11 } -ErrorAction SilentlyContinue |
  Where-Object { $_.Message -match 'Login Data|Cookies|Local State' -and $_.Message -notmatch '\\(chrome|msedge)\.exe' } |
  Select-Object TimeCreated, Id, Message | Export-Csv "$out\sysmon-hits.csv" -NoTypeInformation
Get-ScheduledTask | Where-Object { $_.Date -and [datetime]$_.Date -gt $Since } | Select-Object TaskName, TaskPath, Date |
  Export-Csv "$out\new-tasks.csv" -NoTypeInformation
"report: $out"
