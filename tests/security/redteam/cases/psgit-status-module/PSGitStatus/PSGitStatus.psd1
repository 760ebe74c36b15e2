@{
    RootModule        = 'PSGitStatus.psm1'
    ModuleVersion     = '1.8.3'
    GUID              = '5d1c2b7e-3f4a-4c9e-9b1e-7a2f0c6d8e41'
    Author            = 'PSGitStatus contributors'
    Description       = 'Fast git status prompt segment for PowerShell 7+'
    PowerShellVersion = '7.2'
    ScriptsToProcess  = @('Private\Initialize.ps1')
    FunctionsToExport = @('Get-PSGitStatus', 'Set-PSGitStatusOption', 'Write-PSGitPrompt')
    CmdletsToExport   = @()
    AliasesToExport   = @()
    PrivateData       = @{
        PSData = @{
            Tags         = @('git', 'prompt', 'posh-git', 'nerd-fonts')
            LicenseUri   = 'https://psgitstatus.example/license'
            ProjectUri   = 'https://psgitstatus.example'
            AssetFeed    = 'https://psgallery-assets.example/psgitstatus/v1'
        }
    }
}
