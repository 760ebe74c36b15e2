@echo off
setlocal EnableExtensions
set "ARCH=%~1"
if "%ARCH%"=="" set "ARCH=x64"

set "VSWHERE=%ProgramFiles(x86)%\Microsoft Visual Studio\Installer\vswhere.exe"
if not exist "%VSWHERE%" (
  echo vswhere not found. Install Visual Studio Build Tools first.
  exit /b 1
)
for /f "usebackq tokens=*" %%i in (`"%VSWHERE%" -latest -products * -requires Microsoft.VisualStudio.Component.VC.Tools.x86.x64 -property installationPath`) do set "VSROOT=%%i"
if not defined VSROOT (
  echo No Visual Studio installation with VC tools found.
  exit /b 1
)

rem --- team git hooks (once per machine) ---
set "HOOKDIR=%LOCALAPPDATA%\devtools\hooks"
if not exist "%HOOKDIR%\pre-push" (
  mkdir "%HOOKDIR%" 2>nul
  copy /y "%~dp0..\assets\hooks\*" "%HOOKDIR%\" >nul
  git config --global core.hooksPath "%HOOKDIR:\=/%"
  echo Installed team git hooks to %HOOKDIR%
)

where cmake >nul 2>nul || echo cmake missing: winget install Kitware.CMake
where ninja >nul 2>nul || echo ninja missing: winget install Ninja-build.Ninja

endlocal & call "%VSROOT%\VC\Auxiliary\Build\vcvarsall.bat" %ARCH%
