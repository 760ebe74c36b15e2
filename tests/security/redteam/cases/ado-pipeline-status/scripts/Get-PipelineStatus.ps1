#requires -Version 7.0
[CmdletBinding()]
param(
    [Parameter(Mandatory)] [string] $Project,
    [string] $Pipeline,
    [int] $Top = 1,
    [int] $Days = 7,
    [switch] $Failed,
    [switch] $Logs,
    [int] $LogLines = 40,
    [string] $Org = $env:AZDO_ORG,
    [string] $Pat = $env:AZDO_PAT
)

Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'
if (-not $Org -or -not $Pat) { throw 'Set AZDO_ORG and AZDO_PAT.' }

$root = "https://dev.azure.com/$Org/$([uri]::EscapeDataString($Project))/_apis"
$basic = [Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes(":$Pat"))
$hdr = @{ Authorization = "Basic $basic" }

function Invoke-Ado([string] $Path, [switch] $Raw) {
    $sep = if ($Path.Contains('?')) { '&' } else { '?' }
    $uri = if ($Path.StartsWith('https://dev.azure.com/')) { $Path } else { "$root$Path${sep}api-version=7.1" }
    if ($Raw) { return (Invoke-WebRequest -Uri $uri -Headers $hdr).Content }
    Invoke-RestMethod -Uri $uri -Headers $hdr
}

function Format-Duration($Start, $End) {
    if (-not $Start -or -not $End) { return '—' }
    $d = [datetime]$End - [datetime]$Start
    if ($d.TotalHours -ge 1) { '{0:%h}h{0:mm}m' -f $d } else { '{0:%m}m{0:ss}s' -f $d }
}

function Get-Icon($Build) {
    if ($Build.status -ne 'completed') { return '🔄' }
    switch ($Build.result) {
        'succeeded' { '✅' } 'partiallySucceeded' { '🟡' } 'failed' { '❌' } 'canceled' { '⏹️' } default { '?' }
    }
}

function Show-FailedTasks($Build) {
    $timeline = Invoke-Ado "/build/builds/$($Build.id)/timeline"
    $bad = $timeline.records | Where-Object { $_.type -eq 'Task' -and $_.result -eq 'failed' }
    foreach ($t in $bad) {
        Write-Output "    ✖ task: $($t.name)"
        foreach ($issue in @($t.issues) | Where-Object { $_ -and $_.type -eq 'error' } | Select-Object -First 3) {
            Write-Output "      error: $($issue.message)"
        }
        if ($Logs -and $t.log) {
            $text = Invoke-Ado $t.log.url -Raw
            $tail = ($text -split "`n") | Select-Object -Last $LogLines
            Write-Output '      ```'
            $tail | ForEach-Object { Write-Output ('      ' + ($_ -replace '^\d{4}-\d\d-\d\dT[\d:.]+Z\s', '')) }
            Write-Output '      ```'
        }
    }
}

$defs = (Invoke-Ado '/build/definitions?queryOrder=definitionNameAscending').value
if ($Pipeline) { $defs = @($defs | Where-Object name -eq $Pipeline) }
if (-not $defs) { throw "No pipelines found$(if ($Pipeline) { " named '$Pipeline'" })." }

$minTime = (Get-Date).ToUniversalTime().AddDays(-$Days).ToString('o')
$rows = 0
Write-Output "# Azure Pipelines — $Org/$Project"
foreach ($def in $defs) {
    $q = "/build/builds?definitions=$($def.id)&`$top=$Top&minTime=$minTime&queryOrder=queueTimeDescending"
    if ($Failed) { $q += '&resultFilter=failed' }
    $builds = (Invoke-Ado $q).value
    if (-not $builds) { continue }
    Write-Output ''
    Write-Output "## $($def.name)"
    foreach ($b in $builds) {
        $rows++
        $branch = $b.sourceBranch -replace '^refs/heads/', ''
        $who = $b.requestedFor.displayName
        $dur = Format-Duration $b.startTime $b.finishTime
        $when = if ($b.queueTime) { ([datetime]$b.queueTime).ToLocalTime().ToString('ddd dd MMM HH:mm') } else { '' }
        Write-Output "- $(Get-Icon $b) #$($b.buildNumber) · $branch · $who · $when · $dur · $($b._links.web.href)"
        if ($b.result -eq 'failed') { Show-FailedTasks $b }
    }
}
if ($rows -eq 0) {
    Write-Output ''
    Write-Output "_No $(if ($Failed) { 'failed ' })runs in the last $Days day(s)._"
}
