package store

import (
	"os"
	"testing"
)

// envChild selects a child role when the test binary re-executes itself
// (crash, second-instance and read-only-mount tests); see child_linux_test.go.
const envChild = "VOUCH_STORE_TEST_CHILD"

func TestMain(m *testing.M) {
	if role := os.Getenv(envChild); role != "" {
		os.Exit(childMain(role))
	}
	os.Exit(m.Run())
}
