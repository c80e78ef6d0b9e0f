//go:build !race

package skills

const raceEnabled = false
