package app

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"vouch/internal/app/localskills"
	"vouch/safetext"
	"vouch/store"
)

// data is what the App and the command-line State read and write of the
// database alone. Both embed it, so its methods are theirs: a command
// reads the same views in-process (State) and in the session (App, SPEC
// K5), and no front end is handed the database itself.
type data struct{ db *store.DB }

// Rules are the stored policy rules and decisions (SPEC D1, D6).
func (d data) Rules() *Rules { return newRules(d.db) }

// ToolLabels are the labels of the servers configured in the database,
// read without their catalogs ('vouch policy list').
func (d data) ToolLabels() (ToolLabels, error) { return toolLabelsOf(d.db) }

// RunPage returns one page of run history after cursor, newest first.
func (d data) RunPage(cursor string, limit int) (RunPage, error) {
	return listRunPage(d.db, cursor, limit)
}

// RunDetail returns one run in full, or an error that says it is no
// longer in history.
func (d data) RunDetail(id string) (RunDetail, error) { return readRunDetail(d.db, id) }

// RunRecord returns run id with its events, decisions and frozen spec, or
// a usage error when no run has that ID.
func (d data) RunRecord(id string) (RunRecordDetail, error) { return readRunRecord(d.db, id) }

// WorkflowsStatus reads the Agent Workflows switch and every schedule's
// state at now; note is the sentence about schedules the front end shows
// with them (SPEC H1).
func (d data) WorkflowsStatus(now time.Time, note string) (WorkflowsStatus, error) {
	return readWorkflowsStatus(d.db, now, note)
}

// ScheduleViews lists every profile's schedule with its next and last
// tick at now, every string neutralised for display.
func (d data) ScheduleViews(now time.Time, note string) ([]ScheduleStatus, error) {
	return scheduleViews(d.db, now, note)
}

// SkillChoices lists every skill a profile may enable, for the picker
// (see skillChoices). It reads the database only.
func (d data) SkillChoices(enabled []string) ([]SkillChoice, error) {
	return skillChoices(d.db, enabled)
}

// ServerSkillSummaries lists the server skills with a stored approval as
// rows of 'vouch skill list'. It reads the database only, never a server.
func (d data) ServerSkillSummaries() ([]localskills.Summary, error) {
	return serverSkillSummaries(d.db)
}

// WorkflowsEnabled reads the Agent Workflows switch (SPEC H1).
func (d data) WorkflowsEnabled() (bool, error) { return d.db.WorkflowsEnabled() }

// SetWorkflowsEnabled turns the Agent Workflows switch; nothing is
// deleted (SPEC H1).
func (d data) SetWorkflowsEnabled(on bool) error { return d.db.SetWorkflowsEnabled(on) }

// Runs returns up to limit runs of the history before the run before
// ("": the newest), newest first, and the cursor of the next page ("":
// none).
func (d data) Runs(before string, limit int) ([]RunRecord, string, error) {
	return d.db.Runs(before, limit)
}

// Run returns run id's record.
func (d data) Run(id string) (RunRecord, error) { return d.db.Run(id) }

// PreviewSkill reads the package at path with load and says what
// installing it would do; it writes nothing (SPEC G4).
func (d data) PreviewSkill(ctx context.Context, load localskills.Loader, path string) (localskills.Preview, error) {
	plan, err := localskills.Prepare(ctx, d.db, admitSkills(d.db, load), path, localskills.InstallOptions{})
	err = missingIsUsage(err)
	return plan.Preview, err
}

// InstallSkill installs the package at path under opts and returns the
// installed version with the preview it was installed under. It enables
// and approves nothing (SPEC G4).
func (d data) InstallSkill(ctx context.Context, load localskills.Loader, path string, opts localskills.InstallOptions) (localskills.Summary, localskills.Preview, error) {
	v, plan, err := localskills.Install(ctx, d.db, admitSkills(d.db, load), path, opts)
	err = missingIsUsage(err)
	if err != nil {
		return localskills.Summary{}, localskills.Preview{}, err
	}
	return localskills.SummaryOf(v), plan.Preview, nil
}

// SkillSummaries lists the installed skills, then the server skills with
// a stored approval (origin "server:<label>"), as 'vouch skill list'
// shows them. It reads the database only.
func (d data) SkillSummaries() ([]localskills.Summary, error) {
	vs, err := d.db.Skills()
	if err != nil {
		return nil, err
	}
	out := []localskills.Summary{}
	for _, v := range vs {
		out = append(out, localskills.SummaryOf(v))
	}
	served, err := serverSkillSummaries(d.db)
	if err != nil {
		return nil, err
	}
	return append(out, served...), nil
}

// RemoveSkill removes every version of the installed skill name; the
// definitions it imported stay.
func (d data) RemoveSkill(name string) error {
	err := d.db.RemoveSkill(name)
	if errors.Is(err, store.ErrNotFound) {
		return Errorf(Usage, "no skill named %s is installed; 'vouch skill list' shows them", safetext.Line(name, 80)) // an unknown skill is 2, as docs/commands.md's table says
	}
	return err
}

// DefaultProfile is the profile `vouch run TASK` runs when none is named:
// the one named "default", if it exists and Agent Workflows is on.
// Without it (or with the switch off) the run is a plain headless run
// with the tools selected for its conversation (SPEC H1, M).
const DefaultProfile = "default"

// ProfileToRun says which profile a run of a task runs: named, or
// DefaultProfile when none is named, the switch is on, the run does not
// continue a conversation (continued) and the profile exists; "" is a
// plain run. on is the Agent Workflows switch: a named profile with it
// off may not run (ErrWorkflowsOff), which the caller says.
func (d data) ProfileToRun(named string, continued bool) (name string, on bool, err error) {
	on, err = d.db.WorkflowsEnabled()
	if err != nil {
		return "", false, err
	}
	if named == "" && on && !continued {
		if _, err := d.db.Profile(DefaultProfile, 0); err == nil {
			named = DefaultProfile
		}
	}
	return named, on, nil
}

// StoredModel is the model Settings names (SettingModel), if one is set;
// an unreadable setting is the error.
func (d data) StoredModel() (string, bool, error) { return d.db.Setting(SettingModel) }

// RunEvents returns the stored events of run id, oldest first.
func (d data) RunEvents(id string) ([]RunEvent, error) { return d.db.RunEvents(id) }

// Fleet is the lockfile service over this database (SPEC N1-N4).
func (d data) Fleet() *Fleet { return newFleet(d.db) }

// missingIsUsage makes a path that names nothing a Usage error (exit 2),
// as an unknown definition file is (issue 28 item 14).
func missingIsUsage(err error) error {
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return Wrap(Usage, err)
	}
	return err
}
