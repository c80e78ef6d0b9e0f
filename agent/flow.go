package agent

import "fmt"

// flow runs a Flow definition: each step in order, as its own run with
// the step's tools (narrowing the allowlist), the first on the person's
// conversation and each later one on the person's task and the previous
// step's answer. The last step's conversation is the run's own (its
// messages go to RunSpec.Transcript and Done.Messages). A step that does
// not finish ends the flow with its reason.
func (wf *workflowRun) flow() Done {
	d := wf.w.Definition
	task := lastUser(wf.spec.History)
	history, input := wf.spec.History, task
	for i, step := range d.Flow.Steps {
		last := i == len(d.Flow.Steps)-1
		done, out := wf.runPart(partRun{part: Part{Kind: PartStep, Name: step.Name, Index: i}, input: input,
			history: history, tools: wf.subset(step.Tools), prompt: stepPrompt(d, i), transcript: last})
		if done.Reason != StopDone || last {
			if !last {
				done.Messages = nil // only the last step's conversation is the run's own
			}
			return done
		}
		if out == "" {
			out = "(the previous step gave no answer)"
		}
		input = stepInput(task, step.Name, out)
		history = []Message{{Role: RoleUser, Content: input, Created: wf.spec.Now()}}
	}
	return Done{Reason: StopDone} // unreachable: a flow has at least one step
}

// stepInput is the user message of a step after the first.
func stepInput(task, prev, output string) string {
	return fmt.Sprintf("The person's task:\n%s\n\nThe answer of the previous step (%s), your input:\n%s", task, prev, output)
}
