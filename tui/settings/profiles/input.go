package profiles

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"vouch/workflow"
)

// The profile editor's fields, in tab order.
const (
	FieldName = iota
	FieldDefinition
	FieldModel
	FieldWindow
	FieldTemperature
	FieldBudget
	FieldWorkspace
	FieldSkills
	FieldSchedule
	FieldTask
	FieldCount
)

// profileFieldLabels are the labels of the fields, by index.
var profileFieldLabels = [FieldCount]string{
	"Name", "Definition", "Model", "Context window", "Temperature", "Tool budget",
	"Workspace", "Skills", "Schedule", "Task",
}

// fieldError is a refusal of the form: the field to fix and one sentence
// that says how.
type fieldError struct {
	field int
	msg   string
}

func (e fieldError) Error() string { return e.msg }

// profileForm is what the person typed, as text, before it is checked.
type profileForm struct {
	create     bool
	name       string
	definition string // "" : none chosen
	model      string
	window     string
	temp       string
	budget     string
	workspace  string
	skills     []string // enabled, in order
	policy     []string // enabled local skills marked as policy
	schedule   string
	task       string
}

// parseProfileForm checks f and returns the Input to save, or a
// fieldError naming the first field to fix. Every sentence says what to
// type; the catalog checks (does the definition exist, is the folder
// there) are the Backend's.
func parseProfileForm(f profileForm) (Input, error) {
	in := Input{
		Create:     f.create,
		Name:       strings.TrimSpace(f.name),
		Definition: f.definition,
		Model:      strings.TrimSpace(f.model),
		Workspace:  strings.TrimSpace(f.workspace),
		Skills:     append([]string(nil), f.skills...),
	}
	for _, s := range f.policy {
		if slices.Contains(in.Skills, s) {
			in.PolicySkills = append(in.PolicySkills, s)
		}
	}
	if !workflow.ValidName(in.Name) {
		return in, fieldError{FieldName, fmt.Sprintf("The name must be lower-case letters, digits and hyphens, "+
			"at most %d characters, such as daily-report.", workflow.MaxNameLen)}
	}
	if in.Definition == "" {
		return in, fieldError{FieldDefinition, "Choose a definition with ← and →; when there is none, add one first."}
	}
	if s := strings.TrimSpace(f.window); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return in, fieldError{FieldWindow, "The context window must be a whole number of tokens, such as 8192, " +
				"or empty for the model's own."}
		}
		in.ContextWindow = n
	}
	if s := strings.TrimSpace(f.temp); s != "" {
		t, err := strconv.ParseFloat(s, 64)
		if err != nil || t < 0 || t > 2 {
			return in, fieldError{FieldTemperature, "The temperature must be a number from 0 to 2, such as 0.7, " +
				"or empty for the model's default."}
		}
		in.Temperature = &t
	}
	if s := strings.TrimSpace(f.budget); s != "" {
		b, ok := parseShare(s)
		if !ok {
			return in, fieldError{FieldBudget, "The tool budget must be a share of the context window from 1% to " +
				"100%, such as 25%, or empty for the default."}
		}
		in.ToolBudget = b
	}
	sched, err := parseSchedule(f.schedule, f.task)
	if err != nil {
		return in, err
	}
	in.Schedule = sched
	return in, nil
}

// parseShare reads "25%" or "0.25" as 0.25; it must be in (0, 1].
func parseShare(s string) (float64, bool) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil {
		return 0, false
	}
	if pct || v > 1 {
		v /= 100
	}
	return v, v >= 0.01 && v <= 1
}

// errSchedule is the one sentence for a schedule that does not read.
var errSchedule = fieldError{FieldSchedule, `A schedule is "every" and a duration of at least a minute ` +
	`(every 30m), or "cron" and five fields (cron 0 9 * * 1-5); empty for none.`}

// parseSchedule reads "every 1h" or "cron m h dom mon dow" and the task;
// both empty is no schedule.
func parseSchedule(spec, task string) (*ScheduleInput, error) {
	spec, task = strings.TrimSpace(spec), strings.TrimSpace(task)
	if spec == "" {
		if task != "" {
			return nil, fieldError{FieldTask, "A task runs only on a schedule: set one, or clear the task."}
		}
		return nil, nil
	}
	kind, rest, _ := strings.Cut(spec, " ")
	rest = strings.TrimSpace(rest)
	var s ScheduleInput
	switch strings.ToLower(kind) {
	case "every":
		d, err := time.ParseDuration(rest)
		if err != nil || d < time.Minute {
			return nil, errSchedule
		}
		s.Every = rest
	case "cron":
		if len(strings.Fields(rest)) != 5 {
			return nil, errSchedule
		}
		s.Cron = strings.Join(strings.Fields(rest), " ")
	default:
		return nil, errSchedule
	}
	if task == "" {
		return nil, fieldError{FieldTask, "A schedule needs a task: what each of its runs is asked to do."}
	}
	s.Task = task
	return &s, nil
}

// ScheduleText is the editor's text for a stored schedule.
func ScheduleText(s *ScheduleInput) (spec, task string) {
	switch {
	case s == nil:
		return "", ""
	case s.Cron != "":
		return "cron " + s.Cron, s.Task
	default:
		return "every " + s.Every, s.Task
	}
}

// shareText is the editor's text for a tool budget ("" : the default).
func shareText(b float64) string {
	if b <= 0 {
		return ""
	}
	return strconv.FormatFloat(b*100, 'f', -1, 64) + "%"
}

// asFieldError returns the field an error names, if it is a fieldError.
func asFieldError(err error) (fieldError, bool) {
	var fe fieldError
	ok := errors.As(err, &fe)
	return fe, ok
}

// local reports whether the skill is installed here rather than served by
// an MCP server; only a local skill may be policy (SPEC I6). A server
// skill's name is qualified by its origin ("label/name").
func isLocal(s SkillChoice) bool { return s.Origin == "" && !strings.Contains(s.Name, "/") }
