
.PHONY: rs-fmt rs-lint rs-test rs-build
rs-fmt:
	cargo fmt
rs-lint:
	cargo clippy --all-targets -- -D warnings
rs-test:
	cargo test
rs-build: ## release build
	cargo build --release
