# Recipes for working on vouch. Each is also a plain command in docs/DEVELOPING.md;
# `just` is optional (npm i -g rust-just).

# open vouch on the configured model server
run *ARGS:
    go run ./cmd/vouch {{ARGS}}

# open vouch on a built-in scripted model and demo server, in a throwaway state dir
demo:
    go run ./cmd/vouch demo

# the whole test suite (end-to-end tests skip with a reason when a peer is missing)
test:
    go test -race ./...

# end-to-end tests only; a missing peer fails instead of skipping
e2e:
    VOUCH_E2E=1 go test -race -run 'E2E' -count=1 ./...

# benchmarks recorded in docs/BENCHMARKS.md
bench:
    go test -run '^$' -bench . -benchmem ./...

# vet, staticcheck and a short fuzz run
lint:
    go vet ./...
    staticcheck ./...
    bash .ci/fuzz
