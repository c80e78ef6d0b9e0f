package demo

import (
	"strconv"
	"strings"
	"time"
	"vouch/internal/demo/scripted"
)

// Delay is the pause between demo chunks: about 80 chunks, or roughly
// 100 tokens, per second — fast, but visibly streaming.
const Delay = 12 * time.Millisecond

// Script is the scripted model behind `vouch demo`. It greets, answers
// with a short Markdown reply containing a code block, and when a message
// asks about files, folders or the workspace (and the run offers fs_list) it calls fs_list once and then
// answers from the listing. Every turn repeats, so the demo can go on as
// long as the person likes. NewModel serves it at Delay.
func Script() scripted.Script {
	return scripted.Script{Turns: []scripted.Turn{
		{
			Match:   scripted.AfterToolResult(),
			Repeat:  true,
			Respond: demoAfterTool,
		},
		{
			Match:  scripted.All(mentionsWrite, scripted.Offers("fs_write")),
			Repeat: true,
			Steps: append(scripted.Words("I will add a note to the workspace; you will see the change before it is written.\n"),
				scripted.ToolCall(0, "call_demo3", "fs_write", `{"path":"notes/todo.md","content":"- try ctrl+o to pick a model\n- press ? for help\n- read what vouch asks before saying yes\n"}`)),
		},
		{
			Match:  scripted.All(mentionsServer, scripted.Offers("mcp_lookup")),
			Repeat: true,
			Steps: append(scripted.Words("Let me ask the demo MCP server.\n"),
				scripted.ToolCall(0, "call_demo2", "mcp_lookup", `{"key":"vouch"}`)),
		},
		{
			Match:  scripted.All(mentionsFiles, scripted.Offers("fs_list")),
			Repeat: true,
			Steps: append(scripted.Words("Let me look at the workspace.\n"),
				scripted.ToolCall(0, "call_demo1", "fs_list", `{"path":"."}`)),
		},
		{
			Match:  mentionsFiles,
			Repeat: true,
			Steps:  scripted.Words("I would list your files, but this session offers me no file tools, so I cannot see the workspace."),
		},
		{
			Match:  greeting,
			Repeat: true,
			Steps: append([]scripted.Step{scripted.Reasoning("The person said hello. "), scripted.Reasoning("Introduce the demo briefly.")},
				scripted.Words(demoGreeting)...),
		},
		{
			Repeat: true,
			Steps:  scripted.Words(demoAnswer),
		},
	}}
}

const demoGreeting = "Hello! I am the **vouch demo model**: a script, not a real model, " +
	"so nothing you type leaves this machine.\n\n" +
	"Try asking me to *list the files in the workspace* to see a tool call, " +
	"to *look something up on the server* to see the approval pane, " +
	"to *write a note* to see a change previewed as a diff, " +
	"or ask anything else to see a streamed Markdown answer."

const demoAnswer = "Here is a small example of what a streamed answer looks like.\n\n" +
	"## Reading a file in Go\n\n" +
	"- open it with `os.Open`\n" +
	"- read it line by line with a `bufio.Scanner`\n" +
	"- always check the error at the end\n\n" +
	"```go\n" +
	"f, err := os.Open(\"notes.txt\")\n" +
	"if err != nil {\n" +
	"\treturn err\n" +
	"}\n" +
	"defer f.Close()\n" +
	"sc := bufio.NewScanner(f)\n" +
	"for sc.Scan() {\n" +
	"\tfmt.Println(sc.Text())\n" +
	"}\n" +
	"return sc.Err()\n" +
	"```\n\n" +
	"Ask me to *list the files* to see a tool call and its approval."

// demoAfterTool answers from the result of the call the request ends with.
func demoAfterTool(r scripted.Request) []scripted.Step {
	result := r.Messages[len(r.Messages)-1].Content
	switch lastCallName(r) {
	case "mcp_lookup":
	case "fs_write":
		if strings.Contains(result, "denied") {
			return scripted.Words("You denied the write, so `notes/todo.md` is unchanged.")
		}
		return scripted.Words("Done: `notes/todo.md` now has a third line. The diff you approved is exactly what was written.")
	default:
		return demoListingAnswer(r)
	}
	if strings.Contains(result, "denied") {
		return scripted.Words("You denied the call, so it never reached the server. " +
			"That is the point: nothing runs until you say so.")
	}
	return scripted.Words("The demo server answered:\n\n> " + strings.TrimSpace(firstLine(result)) + "\n\n" +
		// The scripted model cannot know whether the call asked: a rule of
		// the person's may have allowed it, and the transcript says which
		// (issue 18 item 10). The sentence is true either way.
		"Unless a rule of yours allows it, that call waits for you although the server labels `lookup` read-only: " +
		"a server's annotations are its claims, and claims never approve anything.")
}

// lastCallName is the name of the last tool call in the request's history.
func lastCallName(r scripted.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if calls := r.Messages[i].ToolCalls; len(calls) > 0 {
			return calls[len(calls)-1].Name
		}
	}
	return ""
}

// WriteWords are the words that make the demo write its note (README:
// "write a note", "add a line to the notes", "jot down …"): any of them as
// a word of the last message, in any case. A person who tries the demo's
// write in their own words should see the diff, not a canned answer.
var WriteWords = []string{"write", "edit", "add", "append", "change", "update", "jot", "note", "save", "put", "record", "remember"}

// mentionsWrite matches a request to write or change a file: one of
// WriteWords, or an inflection of one ("added", "writing", "notes down"
// does not count: "the notes folder" is not a request to write).
func mentionsWrite(r scripted.Request) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(r.LastUser()), func(c rune) bool { return !('a' <= c && c <= 'z') }) {
		for _, v := range WriteWords {
			if w == v || w == v+"s" && v != "note" || w == v+"ing" || w == strings.TrimSuffix(v, "e")+"ing" || w == v+"ed" || w == v+"d" {
				return true
			}
		}
	}
	return false
}

// mentionsServer matches a request to use the demo MCP server.
func mentionsServer(r scripted.Request) bool {
	return scripted.LastUserContains("server", "look up", "lookup", "mcp")(r)
}

// demoListingAnswer answers from the fs_list result in the request.
func demoListingAnswer(r scripted.Request) []scripted.Step {
	result := r.Messages[len(r.Messages)-1].Content
	var entries []string
	for line := range strings.Lines(result) {
		line = strings.TrimRight(line, "\n")
		if line == "" || strings.HasPrefix(line, "[") || strings.HasPrefix(line, " ") {
			continue
		}
		if name, _, ok := strings.Cut(line, "  "); ok {
			line = name
		}
		entries = append(entries, line)
	}
	var b strings.Builder
	switch {
	case strings.HasPrefix(result, "Error:") || len(entries) == 0:
		b.WriteString("The listing came back empty or with an error:\n\n> " + strings.TrimSpace(firstLine(result)) + "\n")
	default:
		b.WriteString("The workspace has " + strconv.Itoa(len(entries)) + " entries at the top level:\n\n")
		for i, e := range entries {
			if i == 12 {
				b.WriteString("- … and " + strconv.Itoa(len(entries)-12) + " more\n")
				break
			}
			b.WriteString("- `" + e + "`\n")
		}
		b.WriteString("\nDirectories end with `/`. That was one read-only `fs_list` call; " +
			"a real model would now decide what to read next.")
	}
	return scripted.Words(b.String())
}

// mentionsFiles matches a request about the workspace's files ("a file"
// alone is not enough: "how do I read a file in Go" is a question).
func mentionsFiles(r scripted.Request) bool {
	return scripted.LastUserContains("files", "folder", "director", "workspace", "list the", " ls")(r)
}

// greeting matches a last user message that starts with a greeting word.
func greeting(r scripted.Request) bool {
	words := strings.FieldsFunc(strings.ToLower(r.LastUser()), func(c rune) bool {
		return !('a' <= c && c <= 'z')
	})
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "hi", "hello", "hey", "hiya", "howdy", "greetings", "morning", "evening":
		return true
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
