<#
.SYNOPSIS
  Add, list or remove per-user scheduled tasks in the \UserTasks\ folder.
#>
[CmdletBinding(SupportsShouldProcess = $true)]
param(
  [Parameter(Mandatory)] [ValidateSet('Add', 'List', 'Remove')] [string] $Action,
  [ValidatePattern('^[A-Za-z0-9_-]{1,64}$')] [string] $Name,
  [string] $Program,
  [string] $Arguments = '',
  [switch] $Daily,
  [string[]] $Weekly,
  [int] $EveryMinutes,
  [switch] $AtLogOn,
  [string] $At = '09:00'
)

$ErrorActionPreference = 'Stop'
$Folder = '\UserTasks\'
$LogDir = Join-Path $env:LOCALAPPDATA 'UserTasks\logs'

switch ($Action) {
  'List' {
    Get-ScheduledTask -TaskPath $Folder -ErrorAction SilentlyContinue |
      ForEach-Object {
        $info = $_ | Get-ScheduledTaskInfo
        [pscustomobject]@{
          Name    = $_.TaskName
          State   = $_.State
          LastRun = $info.LastRunTime
          Result  = $info.LastTaskResult
          NextRun = $info.NextRunTime
          Action  = ($_.Actions | ForEach-Object { "$($_.Execute) $($_.Arguments)" }) -join '; '
        }
      } | Format-Table -AutoSize
  }

  'Remove' {
    if (-not $Name) { throw '-Name is required' }
    if ($PSCmdlet.ShouldProcess("$Folder$Name", 'Unregister scheduled task')) {
      Unregister-ScheduledTask -TaskPath $Folder -TaskName $Name -Confirm:$false
      Write-Host "removed $Folder$Name"
    }
  }

  'Add' {
    if (-not $Name -or -not $Program) { throw '-Name and -Program are required' }
    $resolved = (Get-Command $Program -ErrorAction SilentlyContinue).Source
    if (-not $resolved) { throw "program not found: $Program" }

    New-Item -ItemType Directory -Force -Path $LogDir | Out-Null
    $log = Join-Path $LogDir "$Name.log"
    # wrap so each run is logged with timestamp and exit code
    $wrapped = "-NoProfile -Command `"& { `$s = Get-Date; & '$resolved' $Arguments *>> '$log'; Add-Content '$log' (`"[{0:s}] exit `$LASTEXITCODE`" -f `$s) }`""
    $taskAction = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument $wrapped

    $triggers = @()
    if ($Daily) { $triggers += New-ScheduledTaskTrigger -Daily -At $At }
    if ($Weekly) { $triggers += New-ScheduledTaskTrigger -Weekly -DaysOfWeek $Weekly -At $At }
    if ($EveryMinutes) {
      $triggers += New-ScheduledTaskTrigger -Once -At (Get-Date).AddMinutes(1) `
        -RepetitionInterval (New-TimeSpan -Minutes $EveryMinutes)
    }
    if ($AtLogOn) { $triggers += New-ScheduledTaskTrigger -AtLogOn -User "$env:USERDOMAIN\$env:USERNAME" }
    if (-not $triggers) { throw 'choose -Daily, -Weekly, -EveryMinutes or -AtLogOn' }

    $principal = New-ScheduledTaskPrincipal -UserId "$env:USERDOMAIN\$env:USERNAME" -LogonType Interactive -RunLevel Limited
    $settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -ExecutionTimeLimit (New-TimeSpan -Hours 2) -MultipleInstances IgnoreNew

    Write-Host "Task     : $Folder$Name"
    Write-Host "Runs     : $resolved $Arguments"
    Write-Host "Triggers : $(($triggers | ForEach-Object { $_.CimClass.CimClassName -replace 'MSFT_Task','' -replace 'Trigger','' }) -join ', ') at $At"
    Write-Host "As user  : $env:USERNAME (limited, only when logged on)"
    Write-Host "Log      : $log"

    if ($PSCmdlet.ShouldProcess("$Folder$Name", 'Register scheduled task')) {
      Register-ScheduledTask -TaskPath $Folder -TaskName $Name -Action $taskAction -Trigger $triggers `
        -Principal $principal -Settings $settings -Description "Created by win-task-scheduler for $env:USERNAME" | Out-Null
      Write-Host "registered. Remove with: .\scripts\tasks.ps1 -Action Remove -Name $Name"
    }
  }
}
