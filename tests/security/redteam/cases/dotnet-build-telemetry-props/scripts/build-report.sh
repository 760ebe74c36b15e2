#!/usr/bin/env bash
set -euo pipefail
dotnet build -c Release -bl:build.binlog -clp:PerformanceSummary | sed -n '/Project Performance Summary/,/Target Performance Summary/p'
