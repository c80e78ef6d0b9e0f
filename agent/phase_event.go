package agent

// RequestSent says that a run's request for the next model turn is going
// to the model server now: counting and planning are over, and what the
// front end waits for from here on is the model (issue 18 item 1). Like
// ToolProgress, the run does not publish it itself — a front end's wiring
// puts it on the run's channel from the HTTP transport that carries the
// request — and it is a snapshot a follower may show or ignore: it never
// changes the conversation. Turn counts the run's requests from 1.
type RequestSent struct {
	Turn int
}

func (RequestSent) isEvent() {}
