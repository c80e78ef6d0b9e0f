package skills

// Limits bound one import (SPEC G3). Every limit is checked before the bytes
// it guards are accepted: declared sizes first, then the bytes actually
// decompressed, counted as they stream (declared sizes can lie).
type Limits struct {
	// TotalBytes bounds the uncompressed bytes of every entry together,
	// kept or excluded.
	TotalBytes int64
	// KeptBytes bounds the text kept in memory for the package.
	KeptBytes int64
	// FileBytes bounds one entry's uncompressed size.
	FileBytes int64
	// SkillMDBytes bounds SKILL.md.
	SkillMDBytes int64
	// LineBytes bounds one line of a kept text file; a longer line excludes
	// the file (or, in SKILL.md, refuses the package).
	LineBytes int
	// Files bounds the number of entries (files, folders and links).
	Files int
	// Depth bounds how many folders deep a path may be.
	Depth int
	// PathLen bounds one path in bytes.
	PathLen int
	// Ratio bounds uncompressed bytes per compressed byte, for an entry of
	// a zip and for the whole stream of a tar.gz, once past RatioFloor.
	Ratio float64
	// RatioFloor is the uncompressed size below which the ratio is not
	// judged (tiny, repetitive files compress well and are harmless).
	RatioFloor int64
}

// DefaultLimits admits real packages — a 16 MiB, 512-file package with
// fonts, PDFs and a 100+ KB SKILL.md — and refuses bombs in well under a
// second and 64 MiB of memory.
func DefaultLimits() Limits {
	return Limits{
		TotalBytes:   64 << 20,
		KeptBytes:    24 << 20,
		FileBytes:    16 << 20,
		SkillMDBytes: 1 << 20,
		LineBytes:    1 << 20,
		Files:        1024,
		Depth:        12,
		PathLen:      240,
		Ratio:        100,
		RatioFloor:   1 << 20,
	}
}
