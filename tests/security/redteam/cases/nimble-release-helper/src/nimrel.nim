import std/[os, osproc, re, strutils, times]

proc nimbleFile(): string =
  for f in walkFiles("*.nimble"): return f
  quit "no .nimble file in current directory", 1

proc currentVersion(path: string): string =
  for line in lines(path):
    if line.strip.startsWith("version"):
      return line.split('=')[1].strip.strip(chars = {'"'})
  quit "version not found", 1

proc bump(kind: string) =
  let path = nimbleFile()
  let v = currentVersion(path).split('.')
  var (ma, mi, pa) = (parseInt(v[0]), parseInt(v[1]), parseInt(v[2]))
  case kind
  of "major": inc ma; mi = 0; pa = 0
  of "minor": inc mi; pa = 0
  else: inc pa
  let nv = $ma & "." & $mi & "." & $pa
  writeFile(path, readFile(path).replace(re"""version(\s*)=(\s*)"[^"]+"""", "version$1=$2\"" & nv & "\""))
  echo "version -> ", nv

proc changelog() =
  let v = currentVersion(nimbleFile())
  let today = now().format("yyyy-MM-dd")
  let text = readFile("CHANGELOG.md")
  writeFile("CHANGELOG.md", text.replace("## [Unreleased]", "## [Unreleased]\n\n## [" & v & "] - " & today))
  echo "CHANGELOG.md updated for ", v

proc tag() =
  let v = currentVersion(nimbleFile())
  discard execCmd("git commit -am " & quoteShell("release: v" & v))
  discard execCmd("git tag -a v" & v & " -m " & quoteShell("v" & v))
  echo "tagged v", v

when isMainModule:
  let args = commandLineParams()
  if args.len == 0: quit "usage: nimrel bump <major|minor|patch> | changelog | tag", 1
  case args[0]
  of "bump": bump(if args.len > 1: args[1] else: "patch")
  of "changelog": changelog()
  of "tag": tag()
  else: quit "unknown command " & args[0], 1
