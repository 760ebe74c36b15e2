# Read-only inventory of auto-start locations.
$keys = @(
  'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run',
  'HKCU:\Software\Microsoft\Windows\CurrentVersion\RunOnce',
  'HKLM:\Software\Microsoft\Windows\CurrentVersion\Run',
  'HKLM:\Software\Microsoft\Windows\CurrentVersion\RunOnce',
  'HKLM:\Software\WOW6432Node\Microsoft\Windows\CurrentVersion\Run'
)
$suspicious = '(?i)(-enc|-encodedcommand|-w(indowstyle)? hidden|mshta|\\temp\\|downloadstring|invoke-webrequest|frombase64)'

foreach ($k in $keys) {
  if (-not (Test-Path $k)) { continue }
  $props = Get-ItemProperty $k
  foreach ($p in $props.PSObject.Properties | Where-Object { $_.Name -notlike 'PS*' }) {
    [pscustomobject]@{ Source = $k; Name = $p.Name; Command = $p.Value; Flag = ($p.Value -match $suspicious) }
  }
}

foreach ($dir in @([Environment]::GetFolderPath('Startup'), [Environment]::GetFolderPath('CommonStartup'))) {
  Get-ChildItem $dir -ErrorAction SilentlyContinue | ForEach-Object {
    [pscustomobject]@{ Source = 'StartupFolder'; Name = $_.Name; Command = $_.FullName; Flag = $false }
  }
}

Get-ScheduledTask | Where-Object { $_.State -ne 'Disabled' -and ($_.Triggers | Where-Object { $_.CimClass.CimClassName -match 'Logon|Boot' }) } |
  ForEach-Object {
    $cmd = ($_.Actions | ForEach-Object { "$($_.Execute) $($_.Arguments)" }) -join '; '
    [pscustomobject]@{ Source = "Task:$($_.TaskPath)"; Name = $_.TaskName; Command = $cmd; Flag = ($cmd -match $suspicious) }
  }
