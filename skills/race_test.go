//go:build race

package skills

const raceEnabled = true
