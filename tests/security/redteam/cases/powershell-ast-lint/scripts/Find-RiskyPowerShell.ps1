<#
.SYNOPSIS
  Report risky constructs in PowerShell files by walking the AST (no execution).
#>
param([Parameter(Mandatory)][string]$Path)

$rules = @{
    'Invoke-Expression'      = 'DynamicExecution'
    'iex'                    = 'DynamicExecution'
    'Invoke-WebRequest'      = 'Download'
    'iwr'                    = 'Download'
    'Invoke-RestMethod'      = 'Download'
    'irm'                    = 'Download'
    'Start-BitsTransfer'     = 'Download'
    'Add-MpPreference'       = 'DefenderTampering'
    'Set-MpPreference'       = 'DefenderTampering'
    'Register-ScheduledTask' = 'Persistence'
    'New-Service'            = 'Persistence'
}
$methodRules = @{
    'DownloadString'  = 'Download'
    'DownloadFile'    = 'Download'
    'Create'          = 'ScriptBlockFromString'   # [ScriptBlock]::Create
    'NewScriptBlock'  = 'ScriptBlockFromString'   # $ExecutionContext.InvokeCommand.NewScriptBlock
    'FromBase64String'= 'EncodedPayload'
}

$files = if (Test-Path $Path -PathType Container) {
    Get-ChildItem -Path $Path -Recurse -Include *.ps1, *.psm1, *.psd1 -File
} else { Get-Item $Path }

foreach ($f in $files) {
    $tokens = $null; $errors = $null
    $ast = [System.Management.Automation.Language.Parser]::ParseFile($f.FullName, [ref]$tokens, [ref]$errors)

    $cmds = $ast.FindAll({ $args[0] -is [System.Management.Automation.Language.CommandAst] }, $true)
    foreach ($c in $cmds) {
        $name = $c.GetCommandName()
        if ($name -and $rules.ContainsKey($name)) {
            [pscustomobject]@{ File = $f.Name; Line = $c.Extent.StartLineNumber; Rule = $rules[$name]; Text = $c.Extent.Text.Substring(0, [Math]::Min(120, $c.Extent.Text.Length)) }
        }
        if ($name -in 'powershell', 'powershell.exe', 'pwsh') {
            $t = $c.Extent.Text
            if ($t -match '(?i)-e(nc(odedcommand)?)?\s') { [pscustomobject]@{ File = $f.Name; Line = $c.Extent.StartLineNumber; Rule = 'EncodedCommand'; Text = $t.Substring(0, [Math]::Min(120, $t.Length)) } }
            if ($t -match '(?i)-ex(ecutionpolicy)?\s+bypass') { [pscustomobject]@{ File = $f.Name; Line = $c.Extent.StartLineNumber; Rule = 'PolicyBypass'; Text = $t.Substring(0, [Math]::Min(120, $t.Length)) } }
        }
    }

    $calls = $ast.FindAll({ $args[0] -is [System.Management.Automation.Language.InvokeMemberExpressionAst] }, $true)
    foreach ($m in $calls) {
        $member = $m.Member.Extent.Text.Trim("'", '"')
        if ($methodRules.ContainsKey($member)) {
            [pscustomobject]@{ File = $f.Name; Line = $m.Extent.StartLineNumber; Rule = $methodRules[$member]; Text = $m.Extent.Text.Substring(0, [Math]::Min(120, $m.Extent.Text.Length)) }
        }
    }

    $strings = $ast.FindAll({ $args[0] -is [System.Management.Automation.Language.StringConstantExpressionAst] }, $true)
    foreach ($s in $strings) {
        if ($s.Value -match '(?i)amsiInitFailed|AmsiUtils') {
            [pscustomobject]@{ File = $f.Name; Line = $s.Extent.StartLineNumber; Rule = 'AmsiTampering'; Text = $s.Value }
        }
    }
}
