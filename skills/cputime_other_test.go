//go:build !unix

package skills

func cpuTime() int64 { return 0 }
