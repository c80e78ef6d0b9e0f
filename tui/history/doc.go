// Package history owns what ↑ and ↓ do on the chat screen. They serve two
// habits at once (SPEC L5; issue 18 item 15): recalling
// earlier prompts, and scrolling the transcript with a mouse wheel. vouch
// does not capture the mouse (so the terminal's text selection keeps
// working, SPEC L1); in the alternate screen most terminals then turn each
// wheel notch into a burst of ↑ or ↓ key presses, written to the terminal
// in one go. The rule, in order ([State.Arrow]):
//
//  1. A burst scrolls. Arrows that arrive within [WheelGap] of each other
//     come from a wheel (a key held down repeats every 30 ms or more; two
//     presses of a person are further apart still). They scroll the
//     transcript a line each, and if the first arrow of the burst already
//     recalled a prompt, that is taken back: the wheel never leaves a
//     prompt in the input.
//  2. While the transcript is scrolled up, ↑/↓ scroll it, line by line,
//     until it is back at the bottom: what is on screen is what the
//     person is reading.
//  3. In a multi-line input, ↑/↓ move the cursor between its lines; only
//     at the first line (↑) or the last (↓) do they leave the input.
//  4. With the input empty, or showing a recalled prompt untouched, ↑
//     recalls the previous prompt of this conversation and ↓ the next one
//     (past the newest, the input is empty again).
//  5. With a draft of the person's own in the input, ↑ at its first line
//     scrolls the transcript instead: no arrow ever replaces what was
//     typed.
//
// Why this surprises least: a wheel does what a wheel does everywhere —
// scroll — in every state; a deliberate ↑ on an empty input recalls, as in
// a shell; and typed text is never lost to either. The cost is one rare
// case: two deliberate presses less than [WheelGap] apart (a laggy SSH link
// delivering them in one packet) scroll instead of recalling; pressing ↑
// again recalls.
//
// The prompts are the person's messages of the transcript, which the root
// hands in ([Screen.Prompt], from chat.Transcript.Prompt): stored with the
// conversation, so they survive a restart and come back when a
// conversation is reopened. The package changes neither the input nor
// the transcript: an arrow returns an [Effect] the root applies.
package history
