package agent

import "context"

// The tool cost the status line shows ("tools 879/1.0k", RunStarted.Tools
// .Sent) is, on llama.cpp, what the server's chat template makes of the
// tools: the template renders them with its own separators and a
// preamble, about 38% more than their compact JSON (issue 17 item 2). It
// is measured once per system prompt and tool set, in the background
// after a run — the system prompt rendered with the tools and without,
// each counted, four round trips never on the way to a request — kept
// like any count, and used from the next run on. The plan itself still
// fits by the estimate.

// renderedTools is the text under whose CountKey the rendered cost of
// tools under system is kept (no message text starts with a NUL).
func renderedTools(system, toolsJSON string) string {
	return "\x00rendered tools\x00" + system + "\x00" + toolsJSON
}

// renderJob is the rendered tool cost a run asks countLater to measure.
type renderJob struct {
	key       string
	system    string
	toolsJSON string
}

// renderedToolTokens is the kept rendered cost of the run's tools, when
// known.
func (r *run) renderedToolTokens() (int, bool) {
	if r.toolsJSON == "" {
		return 0, false
	}
	return r.c.knownCount(r.spec.Model, renderedTools(r.system, r.toolsJSON))
}

// toolRenderJob is the measurement to make after the run, nil when the
// cost is known or there are no tools.
func (r *run) toolRenderJob() *renderJob {
	if r.toolsJSON == "" {
		return nil
	}
	if _, ok := r.renderedToolTokens(); ok {
		return nil
	}
	return &renderJob{key: CountKey(r.spec.Model, renderedTools(r.system, r.toolsJSON)), system: r.system, toolsJSON: r.toolsJSON}
}

// measure renders the system prompt with the tools and without, and
// returns the difference.
func (j *renderJob) measure(ctx context.Context, c *Client) (int, error) {
	msgs := promptMessages(j.system, nil)
	with, err := c.renderTokens(ctx, msgs, j.toolsJSON)
	if err != nil {
		return 0, err
	}
	without, err := c.renderTokens(ctx, msgs, "")
	if err != nil {
		return 0, err
	}
	return max(with-without, 0), nil
}
