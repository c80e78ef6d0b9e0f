package chat

// Prompt returns the n-th most recent of the person's messages in the
// transcript (n = 1 is the last), the input history's ↑ (SPEC L5): the
// transcript holds what the conversation stored, so the history survives a
// restart and follows a reopened conversation. A message equal to the one
// after it counts once, and one equal to skip (a message vouch sends for
// the person, such as alt+c's) not at all. ok is false past the oldest.
func (t *Transcript) Prompt(n int, skip string) (text string, ok bool) {
	prev := ""
	for i := len(t.Items) - 1; i >= 0 && n > 0; i-- {
		it := t.Items[i]
		if it.Kind != ItemUser || it.Text == skip || it.Text == prev {
			continue
		}
		prev = it.Text
		if n--; n == 0 {
			return it.Text, true
		}
	}
	return "", false
}
