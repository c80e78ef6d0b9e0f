//go:build !linux

package store

import "fmt"

func childMain(role string) int {
	fmt.Println("child roles run on Linux only:", role)
	return 2
}
