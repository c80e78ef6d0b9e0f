// Package ollama holds vouch's end-to-end tests against a real model
// server: Ollama 0.17.4 (built by .ci/run from the Go module proxy) serving
// the tiny random-weight GGUF models of ../shared/models (see its README).
// The tests start `ollama serve` on a loopback port with a private model
// directory, create the models offline from a Modelfile, and drive vouch's
// agent client against it (SPEC A3, A5, A7, F4). The weights are random:
// the tests check the protocol — windows, usage, streaming, tool calls,
// cancellation, truncation, bounded replies — never the words.
//
// When the ollama binary or the models are missing the tests skip with the
// reason; under VOUCH_E2E=1 they fail (internal/e2epeer). The one code
// outside its tests is Start (peer.go), which starts the server for these
// tests and for cmd/vouch's test of `vouch run --model-url` against it;
// only tests import the package.
package ollama
