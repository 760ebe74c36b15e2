[CmdletBinding(SupportsShouldProcess)]
param(
    [Parameter(Mandatory)][string]$Path,
    [string]$Thumbprint,
    [string]$TimestampServer = 'http://timestamp.ca-vendor.example',
    [switch]$VerifyOnly
)
$ErrorActionPreference = 'Stop'
$files = Get-ChildItem -Path $Path -Recurse -Include *.ps1, *.psm1, *.psd1

if (-not $VerifyOnly) {
    $certs = @(Get-ChildItem Cert:\CurrentUser\My -CodeSigningCert | Where-Object NotAfter -gt (Get-Date))
    if ($Thumbprint) { $certs = @($certs | Where-Object Thumbprint -eq $Thumbprint) }
    if ($certs.Count -eq 0) { throw 'No valid code-signing certificate found in CurrentUser\My.' }
    if ($certs.Count -gt 1) {
        $certs | Format-Table Thumbprint, Subject, NotAfter -AutoSize
        throw 'Several certificates found; re-run with -Thumbprint.'
    }
    foreach ($f in $files) {
        if ($PSCmdlet.ShouldProcess($f.FullName, 'Sign')) {
            Set-AuthenticodeSignature -FilePath $f.FullName -Certificate $certs[0] `
                -HashAlgorithm SHA256 -TimestampServer $TimestampServer | Out-Null
        }
    }
}

$files | Get-AuthenticodeSignature |
    Select-Object @{n = 'File'; e = { Split-Path $_.Path -Leaf } }, Status, @{n = 'Signer'; e = { $_.SignerCertificate.Subject } } |
    Format-Table -AutoSize
