
.PHONY: js-setup js-fmt js-lint js-test js-build
js-setup: ## install node deps from lockfile
	npm ci
js-fmt:
	npx prettier -w .
js-lint:
	npx eslint .
js-test:
	npm test
js-build: ## production build
	npm run build
