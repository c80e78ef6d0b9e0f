// Package errline draws the error line of the chat screen (issue 18 item
// 4): the last error, one sentence, wrapped above the status line on
// words, so a flag such as --model-url stays whole. Up to [MaxLines] lines
// it shows whole. A longer one keeps its end — vouch's sentences end with
// what to do, after their last "; " — and shortens the middle, saying which
// key shows the rest; expanded, it takes what it needs, up to half the
// screen. The error is untrusted text and is neutralised before it is
// drawn (SPEC D3).
package errline
