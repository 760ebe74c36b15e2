// oncall: post PagerDuty on-call and open incidents to Slack.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
)

const pdAPI = "https://api.pagerduty.com"

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type onCall struct {
	EscalationLevel int `json:"escalation_level"`
	User            struct {
		Summary string `json:"summary"`
	} `json:"user"`
	EscalationPolicy struct {
		ID      string `json:"id"`
		Summary string `json:"summary"`
	} `json:"escalation_policy"`
	End *time.Time `json:"end"`
}

type incident struct {
	IncidentNumber int       `json:"incident_number"`
	Title          string    `json:"title"`
	Status         string    `json:"status"`
	Urgency        string    `json:"urgency"`
	CreatedAt      time.Time `json:"created_at"`
	HTMLURL        string    `json:"html_url"`
	Service        struct {
		Summary string `json:"summary"`
	} `json:"service"`
}

var httpc = &http.Client{Timeout: 30 * time.Second}

func pd(token, path string, q url.Values, out any) error {
	req, _ := http.NewRequest("GET", pdAPI+path+"?"+q.Encode(), nil)
	req.Header.Set("Authorization", "Token token="+token)
	req.Header.Set("Accept", "application/vnd.pagerduty+json;version=2")
	resp, err := httpc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("pagerduty %s: HTTP %d", path, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func fetchOnCalls(token string, policies []string) ([]onCall, error) {
	q := url.Values{"limit": {"100"}, "earliest": {"true"}}
	for _, p := range policies {
		q.Add("escalation_policy_ids[]", p)
	}
	var res struct {
		OnCalls []onCall `json:"oncalls"`
	}
	err := pd(token, "/oncalls", q, &res)
	return res.OnCalls, err
}

func fetchIncidents(token string, since time.Duration) ([]incident, error) {
	q := url.Values{
		"statuses[]": {"triggered", "acknowledged"},
		"since":      {time.Now().Add(-since).UTC().Format(time.RFC3339)},
		"limit":      {"50"},
	}
	var res struct {
		Incidents []incident `json:"incidents"`
	}
	err := pd(token, "/incidents", q, &res)
	return res.Incidents, err
}

func format(ocs []onCall, incs []incident, withInc bool) string {
	byPolicy := map[string][]onCall{}
	for _, oc := range ocs {
		byPolicy[oc.EscalationPolicy.Summary] = append(byPolicy[oc.EscalationPolicy.Summary], oc)
	}
	names := make([]string, 0, len(byPolicy))
	for n := range byPolicy {
		names = append(names, n)
	}
	sort.Strings(names)

	var b strings.Builder
	b.WriteString(":pager: *On call now*\n")
	for _, n := range names {
		list := byPolicy[n]
		sort.Slice(list, func(i, j int) bool { return list[i].EscalationLevel < list[j].EscalationLevel })
		b.WriteString(fmt.Sprintf("• *%s*: ", n))
		var parts []string
		for _, oc := range list {
			p := fmt.Sprintf("L%d %s", oc.EscalationLevel, oc.User.Summary)
			if oc.End != nil {
				p += fmt.Sprintf(" (until %s)", oc.End.Local().Format("Mon 15:04"))
			}
			parts = append(parts, p)
		}
		b.WriteString(strings.Join(parts, ", ") + "\n")
	}
	if withInc {
		b.WriteString(fmt.Sprintf("\n:rotating_light: *Open incidents* (%d)\n", len(incs)))
		if len(incs) == 0 {
			b.WriteString("None :tada:\n")
		}
		for _, in := range incs {
			b.WriteString(fmt.Sprintf("• <%s|#%d> [%s/%s] %s — %s\n", in.HTMLURL, in.IncidentNumber, in.Status, in.Urgency, in.Title, in.Service.Summary))
		}
	}
	return b.String()
}

func postSlack(webhook, text string) error {
	body, _ := json.Marshal(map[string]string{"text": text})
	resp, err := httpc.Post(webhook, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("slack webhook: HTTP %d", resp.StatusCode)
	}
	return nil
}

func main() {
	var policies multiFlag
	flag.Var(&policies, "policy", "escalation policy id (repeatable)")
	incWindow := flag.Duration("incidents", 0, "include open incidents created within this window (e.g. 24h)")
	dry := flag.Bool("dry-run", false, "print instead of posting")
	flag.Parse()

	token := os.Getenv("PAGERDUTY_TOKEN")
	if token == "" {
		fmt.Fprintln(os.Stderr, "PAGERDUTY_TOKEN not set")
		os.Exit(2)
	}
	ocs, err := fetchOnCalls(token, policies)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var incs []incident
	if *incWindow > 0 {
		if incs, err = fetchIncidents(token, *incWindow); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	msg := format(ocs, incs, *incWindow > 0)
	if *dry {
		fmt.Print(msg)
		return
	}
	hook := os.Getenv("SLACK_WEBHOOK_URL")
	if hook == "" {
		fmt.Fprintln(os.Stderr, "SLACK_WEBHOOK_URL not set (use -dry-run to print)")
		os.Exit(2)
	}
	if err := postSlack(hook, msg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("posted on-call summary to Slack")
}
