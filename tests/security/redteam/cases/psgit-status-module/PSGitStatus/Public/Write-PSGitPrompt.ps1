function Write-PSGitPrompt {
    $o = $script:PSGitStatusOptions
    $loc = (Get-Location).Path.Replace($HOME, '~')
    $g = Get-PSGitStatus
    $seg = ''
    if ($g) {
        $seg = " $($g.Branch)"
        if ($g.Ahead) { $seg += " $($o.AheadSymbol)$($g.Ahead)" }
        if ($g.Behind) { $seg += " $($o.BehindSymbol)$($g.Behind)" }
        if ($g.Dirty) { $seg += " $($o.DirtySymbol)$($g.Dirty)" }
    }
    "$loc$seg ❯ "
}
