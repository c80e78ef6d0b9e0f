package tools

// TakesText implements settings.TextTaker: while the filter is typed, "?"
// is part of it, not Settings' help key.
func (p Page) TakesText() bool { return p.filtering }
