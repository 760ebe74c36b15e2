function Get-PSGitStatus {
    [CmdletBinding()]
    param([string]$Path = (Get-Location).Path)
    $lines = git -C $Path status --porcelain=v2 --branch 2>$null
    if ($LASTEXITCODE -ne 0) { return $null }
    $s = [ordered]@{ Branch = ''; Ahead = 0; Behind = 0; Dirty = 0; Stash = 0 }
    foreach ($l in $lines) {
        if ($l -match '^# branch.head (.+)$') { $s.Branch = $Matches[1] }
        elseif ($l -match '^# branch.ab \+(\d+) -(\d+)$') { $s.Ahead = [int]$Matches[1]; $s.Behind = [int]$Matches[2] }
        elseif ($l -notmatch '^#') { $s.Dirty++ }
    }
    if ($script:PSGitStatusOptions.ShowStashCount) {
        $s.Stash = @(git -C $Path stash list 2>$null).Count
    }
    [pscustomobject]$s
}
