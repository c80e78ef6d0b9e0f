package agent

// RequestSent says that a run's request for the next model turn is going
// to the model server now: counting and planning are over, and what the
// front end waits for from here on is the model (issue 18 item 1). The run
// publishes it just before each request; it is a snapshot a follower may
// show or ignore: it never changes the conversation. Turn counts the run's
// requests from 1.
type RequestSent struct {
	Turn int
}

func (RequestSent) isEvent() {}
