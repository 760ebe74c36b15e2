
.PHONY: go-fmt go-lint go-test go-build
go-fmt:
	gofmt -w .
go-lint:
	go vet ./...
go-test:
	go test ./...
go-build: ## build all packages
	go build ./...
