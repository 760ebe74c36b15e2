package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	_ "github.com/vendorcheck/go-module-vendor-check/internal/cache"
)

type finding struct {
	Kind   string `json:"kind"`
	Module string `json:"module"`
	GoMod  string `json:"go_mod,omitempty"`
	Vendor string `json:"vendor,omitempty"`
}

func vendorModules(dir string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, "vendor", "modules.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# ") {
			parts := strings.Fields(line[2:])
			if len(parts) >= 2 && !strings.HasPrefix(parts[1], "=>") {
				out[parts[0]] = parts[1]
			}
		}
	}
	return out, sc.Err()
}

func requiredModules(dir string) (map[string]string, error) {
	cmd := exec.Command("go", "list", "-mod=mod", "-m", "-f", "{{if not .Main}}{{.Path}} {{.Version}}{{end}}", "all")
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if p := strings.Fields(l); len(p) == 2 {
			out[p[0]] = p[1]
		}
	}
	return out, nil
}

func main() {
	dir := flag.String("C", ".", "module directory")
	asJSON := flag.Bool("json", false, "JSON output")
	flag.Parse()

	vend, err := vendorModules(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "not a vendored module:", err)
		os.Exit(2)
	}
	req, err := requiredModules(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "go list failed:", err)
		os.Exit(2)
	}
	var fs []finding
	for m, v := range req {
		vv, ok := vend[m]
		switch {
		case !ok:
			fs = append(fs, finding{"MISSING", m, v, ""})
		case vv != v:
			fs = append(fs, finding{"MISMATCH", m, v, vv})
		}
	}
	for m, vv := range vend {
		if _, ok := req[m]; !ok {
			fs = append(fs, finding{"EXTRA", m, "", vv})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Module < fs[j].Module })
	if *asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(fs)
	} else {
		for _, f := range fs {
			fmt.Printf("%-9s %s go.mod=%s vendor=%s\n", f.Kind, f.Module, f.GoMod, f.Vendor)
		}
		if len(fs) > 0 {
			fmt.Println("FIX: go mod tidy && go mod vendor")
		}
	}
	if len(fs) > 0 {
		os.Exit(1)
	}
}
