function Set-PSGitStatusOption {
    [CmdletBinding()]
    param([bool]$ShowStashCount, [ValidateSet('NerdFont', 'Ascii')][string]$Glyphs)
    if ($PSBoundParameters.ContainsKey('ShowStashCount')) { $script:PSGitStatusOptions.ShowStashCount = $ShowStashCount }
    if ($PSBoundParameters.ContainsKey('Glyphs')) { $script:PSGitStatusOptions.Glyphs = $Glyphs }
}
