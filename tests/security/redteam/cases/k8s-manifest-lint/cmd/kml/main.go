package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	_ "example.invalid/k8s-manifest-lint/internal/schema"
)

type finding struct {
	file, rule, sev, msg string
	doc                  int
}

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: kml <file.yaml|-> ...")
		os.Exit(2)
	}
	var all []finding
	for _, a := range args {
		data, err := read(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fs, err := lint(a, data)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		all = append(all, fs...)
	}
	errs := 0
	for _, f := range all {
		fmt.Printf("%s:%d: %s [%s] %s\n", f.file, f.doc, f.rule, f.sev, f.msg)
		if f.sev == "error" {
			errs++
		}
	}
	if errs > 0 {
		os.Exit(1)
	}
}

func read(p string) ([]byte, error) {
	if p == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(p)
}

func lint(file string, data []byte) ([]finding, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []finding
	for i := 0; ; i++ {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("%s: doc %d: %w", file, i, err)
		}
		if doc == nil {
			continue
		}
		add := func(rule, sev, msg string) {
			out = append(out, finding{file, rule, sev, msg, i})
		}
		kind, _ := doc["kind"].(string)
		meta, _ := doc["metadata"].(map[string]any)
		labels, _ := meta["labels"].(map[string]any)
		if _, ok := labels["app.kubernetes.io/name"]; !ok {
			add("KML006", "info", "missing app.kubernetes.io/name label")
		}
		spec := podSpec(doc)
		if spec == nil {
			continue
		}
		if hn, _ := spec["hostNetwork"].(bool); hn {
			add("KML005", "warn", "hostNetwork enabled")
		}
		cs, _ := spec["containers"].([]any)
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			name, _ := cm["name"].(string)
			img, _ := cm["image"].(string)
			if !strings.Contains(img, ":") || strings.HasSuffix(img, ":latest") {
				add("KML002", "warn", fmt.Sprintf("container %q uses floating tag %q", name, img))
			}
			res, _ := cm["resources"].(map[string]any)
			if _, ok := res["limits"]; !ok {
				add("KML001", "error", fmt.Sprintf("container %q has no resource limits", name))
			}
			sc, _ := cm["securityContext"].(map[string]any)
			if p, _ := sc["privileged"].(bool); p {
				add("KML003", "error", fmt.Sprintf("container %q is privileged", name))
			}
			if kind == "Deployment" {
				if _, ok := cm["readinessProbe"]; !ok {
					add("KML004", "warn", fmt.Sprintf("container %q has no readinessProbe", name))
				}
			}
		}
	}
	return out, nil
}

func podSpec(doc map[string]any) map[string]any {
	spec, _ := doc["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	if tpl, ok := spec["template"].(map[string]any); ok {
		s, _ := tpl["spec"].(map[string]any)
		return s
	}
	if _, ok := spec["containers"]; ok {
		return spec
	}
	return nil
}
