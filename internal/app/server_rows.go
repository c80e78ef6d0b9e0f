package app

import (
	"slices"
	"time"

	"vouch/mcpclient"
)

// ServerRow is one MCP server as `vouch server list --json` and `vouch
// doctor --json` show it. It never holds a secret, only the name of the
// header one travels in.
type ServerRow struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	URL        string    `json:"url"`
	HeaderName string    `json:"header_name,omitempty"`
	Active     bool      `json:"active"`
	Status     string    `json:"status"`
	Error      string    `json:"error,omitempty"`
	Tools      int       `json:"tools"`
	FetchedAt  time.Time `json:"fetched_at,omitzero"`
}

// ServerRows lists the configured servers with their status and catalog
// (only those in ids when ids is not nil), in the manager's order.
func (svc *MCP) ServerRows(ids []string) []ServerRow {
	var rows []ServerRow
	for _, st := range svc.mgr.Servers() {
		if ids != nil && !slices.Contains(ids, st.Config.ID) {
			continue
		}
		rows = append(rows, serverRow(st))
	}
	return rows
}

func serverRow(st mcpclient.ServerState) ServerRow {
	r := ServerRow{ID: st.Config.ID, Name: st.Config.Name, URL: st.Config.URL, HeaderName: st.Config.HeaderName,
		Active: st.Config.Active, Status: string(st.Status), Error: st.Err}
	if st.HasCatalog {
		r.Tools, r.FetchedAt = len(st.Catalog.Tools), st.Catalog.FetchedAt
	}
	return r
}
