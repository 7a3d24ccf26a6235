# The two commands of the README, and a few more. Each installs what it needs first.
.PHONY: start test reset lint typecheck build bench

start:      ## Start the portal locally with demo data (Ctrl-C stops it)
	npm start

test:       ## Run every test suite, as CI does
	npm test

reset:      ## Wipe local data; the next start seeds the demo again
	npm run reset

lint:
	npx biome check .

typecheck:
	npx tsc -p tsconfig.json

build:
	npm run build

bench:      ## Gateway and service benchmarks against their baselines
	npm run bench
