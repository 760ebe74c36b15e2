package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

type mod struct {
	Path, Version, Dir string
	Main               bool
}

var patterns = []struct{ text, id, copyleft string }{
	{"GNU AFFERO GENERAL PUBLIC LICENSE", "AGPL-3.0", "network"},
	{"GNU LESSER GENERAL PUBLIC LICENSE", "LGPL", "weak"},
	{"GNU GENERAL PUBLIC LICENSE", "GPL", "strong"},
	{"Mozilla Public License", "MPL-2.0", "weak"},
	{"Apache License", "Apache-2.0", "none"},
	{"Permission is hereby granted, free of charge", "MIT", "none"},
	{"Permission to use, copy, modify, and/or distribute", "ISC", "none"},
	{"Neither the name", "BSD-3-Clause", "none"},
	{"Redistribution and use in source and binary forms", "BSD-2-Clause", "none"},
}

func modules() ([]mod, error) {
	out, err := exec.Command("go", "list", "-m", "-json", "all").Output()
	if err != nil {
		return nil, err
	}
	var mods []mod
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m mod
		if err := dec.Decode(&m); err != nil {
			return nil, err
		}
		if !m.Main {
			mods = append(mods, m)
		}
	}
	return mods, nil
}

func detect(dir string) (id, copyleft, file string) {
	if dir == "" {
		return "NOT-IN-CACHE", "?", ""
	}
	for _, name := range []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, pat := range patterns {
			if strings.Contains(string(b), pat.text) {
				return pat.id, pat.copyleft, p
			}
		}
		return "UNKNOWN", "?", p
	}
	return "MISSING", "?", ""
}

func main() {
	asCSV := flag.Bool("csv", false, "CSV output")
	failOn := flag.String("fail-on", "", "comma-separated license ids that cause exit 2")
	flag.Parse()

	mods, err := modules()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go list failed:", err)
		os.Exit(1)
	}
	deny := map[string]bool{}
	for _, id := range strings.Split(*failOn, ",") {
		if id = strings.TrimSpace(id); id != "" {
			deny[id] = true
		}
	}
	w := csv.NewWriter(os.Stdout)
	if *asCSV {
		w.Write([]string{"module", "version", "license", "copyleft", "file"})
	}
	hits := 0
	for _, m := range mods {
		id, cl, file := detect(m.Dir)
		if deny[id] {
			hits++
		}
		if *asCSV {
			w.Write([]string{m.Path, m.Version, id, cl, file})
		} else {
			fmt.Printf("%-55s %-14s %-14s %s\n", m.Path, m.Version, id, cl)
		}
	}
	w.Flush()
	if hits > 0 {
		fmt.Fprintf(os.Stderr, "%d dependency(ies) use a denied license\n", hits)
		os.Exit(2)
	}
}
